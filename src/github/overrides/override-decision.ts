import type { CheckOutput } from '../../report/index.js';
import { describeNew } from './grant-lapse.js';
import type { GrantOutgrown } from './grant-lapse.js';
import { notCovered, overridable, readOverride, signOverride } from './override.js';
import type { OverrideRecord, StateTrust } from './override.js';
import { newSince, summaryFrom, summaryOf } from './reviewed-state.js';
import type { ReviewedState } from './reviewed-state.js';
import type { ShownRequest } from './shown-request.js';

/** An override command already authorised, and what binds it to what its author saw. */
export interface OverrideGrant {
  by: string;
  reason: string;
  /** The command comment's id: one comment grants once, however often it is delivered. */
  commentId: number;
  /** When GitHub says the command comment was created (ISO 8601). */
  commandAt: string;
  /** `demand`: its author may approve only the demand the pull request declares in the catalog. */
  scope?: 'demand';
}

export interface OverrideDecision {
  /** The override in force for this review: granted now, or carried from our comment. */
  override: OverrideRecord | null;
  /** Why a grant asked for was not recorded; null when none was asked for or it was recorded. */
  refused: string | null;
  /** Override records in our comment whose signature does not hold: ignored. */
  unverified: number;
  /** A genuine override the review no longer falls under, and what is new; null when none lapsed. */
  lapsed: GrantOutgrown | null;
}

export interface DecisionInput {
  grant: OverrideGrant | undefined;
  /** Our comment's text as read before writing; null when there is none. */
  commentBody: string | null;
  /** What that comment showed, its signature checked. */
  shown: ShownRequest | null;
  /** What this review judged, whole: what a grant binds to. */
  state: ReviewedState;
  /**
   * Whether approving the demand the pull request declares would make it pass: some declared demand
   * is not measured, and counted as written the review would find the PR justified.
   */
  demandApprovable: boolean;
  output: CheckOutput;
  headSha: string;
  trust: StateTrust;
  now: Date;
}

/**
 * The override in force: a new grant, when the check does not pass on its own and the command
 * was written after our comment had shown everything now under review; else the one our comment
 * records, when its signature holds and the review holds nothing it was not granted for. A
 * genuine record the review no longer falls under has lapsed, and says what is new.
 */
export function overrideInForce(input: DecisionInput): OverrideDecision {
  const { grant, state, output, trust } = input;
  const reading = readOverride(input.commentBody, trust);
  const unverified = reading.kind === 'unverified' ? reading.count : 0;
  const news = reading.kind === 'verified' ? notCovered(reading.record, state) : [];
  // An approval of declared demand stands only while that demand is all the PR lacks.
  const scoped = reading.kind === 'verified' && (reading.record.scope !== 'demand' || input.demandApprovable);
  const recorded = reading.kind === 'verified' && scoped && news !== 'unknown' && news.length === 0 ? reading.record : null;
  const lapsed = reading.kind === 'verified' && recorded === null ? { record: reading.record, news } : null;
  if (!overridable(output)) return { override: null, refused: null, unverified, lapsed: null };
  if (!grant) return { override: recorded, refused: null, unverified, lapsed };
  // The same command delivered again: already in force, granted nothing more.
  if (recorded?.commentId === grant.commentId) return { override: recorded, refused: null, unverified, lapsed: null };
  const refused = trust.key
    ? (scopeProblem(grant, input.demandApprovable) ?? bindingProblem(grant, input.shown, state))
    : 'this server holds no state secret, so an override cannot be bound to the review you saw; ask the operator to set GPU_JUSTIFY_STATE_SECRET';
  if (refused) return { override: recorded, refused, unverified, lapsed };
  const record = signOverride(
    {
      by: grant.by,
      reason: grant.reason,
      at: input.now.toISOString(),
      headSha: input.headSha,
      ...summaryOf(state),
      commentId: grant.commentId,
      ...(grant.scope === undefined ? {} : { scope: grant.scope }),
    },
    trust,
  );
  return { override: record, refused: null, unverified, lapsed: null };
}

/** Why an approval of declared demand cannot pass this review, or null when it can (or is no such approval). */
function scopeProblem(grant: OverrideGrant, approvable: boolean): string | null {
  if (grant.scope !== 'demand' || approvable) return null;
  return (
    'as a code owner of the catalog you may approve the demand this pull request declares there, and counted as written ' +
    'it would still not justify the pull request (see the review); an override needs the permission or team the policy names'
  );
}

/** Why the command cannot be bound to the state under review, or null when it can. */
function bindingProblem(grant: OverrideGrant, shown: ShownRequest | null, state: ReviewedState): string | null {
  const commandAt = Date.parse(grant.commandAt);
  if (shown === null) {
    return 'no review of this GPU request had been posted when you commented, so it is not clear what you approved; read the review below and send the command again';
  }
  const seen = summaryFrom(shown.fingerprint, shown.state);
  const news = newSince(seen, state);
  if (news === 'unknown' || news.length > 0) {
    return `the review changed after the one you commented on (${describeNew(news, seen, state, 'shown')}); read the updated review and send the command again`;
  }
  // Strictly after: GitHub's times are whole seconds, and a command in the second our comment
  // changed may have been written while the old one was on screen.
  if (!Number.isFinite(commandAt) || !(commandAt > Date.parse(shown.since))) {
    return 'you commented before the review showed what it now covers; read the review below and send the command again';
  }
  return null;
}
