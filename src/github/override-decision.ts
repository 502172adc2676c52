import type { ReviewResult } from '../domain/review.js';
import type { CheckOutput } from '../report/check.js';
import { overridable, overrideStillApplies, readOverride, requestFingerprint, signOverride } from './override.js';
import type { OverrideRecord, StateTrust } from './override.js';
import type { ShownRequest } from './shown-request.js';

/** An override command already authorised, and what binds it to what its author saw. */
export interface OverrideGrant {
  by: string;
  reason: string;
  /** The command comment's id: one comment grants once, however often it is delivered. */
  commentId: number;
  /** When GitHub says the command comment was created (ISO 8601). */
  commandAt: string;
}

export interface OverrideDecision {
  /** The override in force for this review: granted now, or carried from our comment. */
  override: OverrideRecord | null;
  /** Why a grant asked for was not recorded; null when none was asked for or it was recorded. */
  refused: string | null;
  /** Override records in our comment whose signature does not hold: ignored. */
  unverified: number;
}

export interface DecisionInput {
  grant: OverrideGrant | undefined;
  /** Our comment's text as read before writing; null when there is none. */
  commentBody: string | null;
  /** What that comment showed, its signature checked. */
  shown: ShownRequest | null;
  result: ReviewResult;
  output: CheckOutput;
  headSha: string;
  trust: StateTrust;
  now: Date;
}

/**
 * The override in force: a new grant, when the check does not pass on its own and the command
 * was written after our comment had shown the very request now under review; else the one our
 * comment records, when its signature holds and the GPU request is unchanged.
 */
export function overrideInForce(input: DecisionInput): OverrideDecision {
  const { grant, result, output, trust } = input;
  const reading = readOverride(input.commentBody, trust);
  const unverified = reading.kind === 'unverified' ? reading.count : 0;
  const recorded = reading.kind === 'verified' && overrideStillApplies(reading.record, result) ? reading.record : null;
  if (!overridable(output)) return { override: null, refused: null, unverified };
  if (!grant) return { override: recorded, refused: null, unverified };
  // The same command delivered again: already in force, granted nothing more.
  if (recorded?.commentId === grant.commentId) return { override: recorded, refused: null, unverified };
  const refused = trust.key
    ? bindingProblem(grant, input.shown, requestFingerprint(result))
    : 'this server holds no state secret, so an override cannot be bound to the request you saw; ask the operator to set GPU_JUSTIFY_STATE_SECRET';
  if (refused) return { override: recorded, refused, unverified };
  const record = signOverride(
    {
      by: grant.by,
      reason: grant.reason,
      at: input.now.toISOString(),
      headSha: input.headSha,
      fingerprint: requestFingerprint(result),
      commentId: grant.commentId,
    },
    trust,
  );
  return { override: record, refused: null, unverified };
}

/** Why the command cannot be bound to the request under review, or null when it can. */
function bindingProblem(grant: OverrideGrant, shown: ShownRequest | null, fingerprint: string): string | null {
  const commandAt = Date.parse(grant.commandAt);
  if (shown === null) {
    return 'no review of this GPU request had been posted when you commented, so it is not clear what you approved; read the review below and send the command again';
  }
  // Strictly after: GitHub's times are whole seconds, and a command in the second our comment
  // changed may have been written while the old one was on screen.
  if (shown.fingerprint !== fingerprint || !Number.isFinite(commandAt) || !(commandAt > Date.parse(shown.since))) {
    return 'the GPU request changed after the review you commented on; read the updated review and send the command again';
  }
  return null;
}
