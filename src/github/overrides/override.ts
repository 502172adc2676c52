import { z } from 'zod';
import type { ReviewResult } from '../../domain/review.js';
import type { CheckOutput } from '../../report/index.js';
import { md } from '../../report/index.js';
import { readStateMarkers, stateMarker } from './comment-state.js';
import { newSince, summaryFrom, TOKENS_RE } from './reviewed-state.js';
import type { ReviewedState, StateEntry } from './reviewed-state.js';
import { signState, verifyState } from './state-signature.js';
import type { StateKey, StateScope } from './state-signature.js';

/**
 * An accepted `/gpu-justify override`: who, when, why, for which head, which command comment
 * granted it, and the reviewed state it was granted for (see reviewed-state.ts). It lives in the
 * sticky comment as a hidden marker, signed with the server's key, so it survives restarts while no
 * text a pull request writes into the comment can pass for one.
 */
export interface OverrideRecord {
  by: string;
  /** ISO 8601 time it was granted. */
  at: string;
  reason: string;
  headSha: string;
  /** The digest of the reviewed state it was granted for. */
  fingerprint: string;
  /** The grantor's `/gpu-justify override` comment: one command grants once. */
  commentId: number;
  /**
   * That state's entries as tokens, comma-separated; absent when there were too many to keep (only
   * an equal digest then binds) and in records from before grants covered the whole state.
   */
  state?: string | undefined;
  /**
   * `demand`: an approval, by a code owner of the catalog, of the demand the pull request declares
   * there; it passes the check only where that demand, counted, justifies the PR. Absent: an override.
   */
  scope?: 'demand';
  /** HMAC over the scope and every field above; empty when the server holds no key. */
  sig: string;
}

export type UnsignedOverride = Omit<OverrideRecord, 'sig'>;

const KIND = 'override';

const RecordSchema = z.object({
  by: z.string().min(1).max(100),
  at: z.string().max(40),
  reason: z.string().max(1000),
  headSha: z.string().regex(/^[0-9a-f]{40}$/i),
  fingerprint: z.string().regex(/^[0-9a-f]{16,64}$/),
  commentId: z.number().int().positive(),
  state: z.string().max(12_000).regex(TOKENS_RE).optional(),
  scope: z.literal('demand').optional(),
  sig: z.string().max(128),
});

/** What a review needs to sign or check the state in our comment. */
export interface StateTrust {
  /** Null: the server holds no secret, so nothing read back from a comment is trusted. */
  key: StateKey | null;
  scope: StateScope;
}

function signedFields(r: UnsignedOverride): (string | number)[] {
  const fields = [r.by, r.at, r.reason, r.headSha, r.fingerprint, r.commentId];
  // A record without `state` signs the six fields records have always signed.
  if (r.state === undefined) return fields;
  return r.scope === undefined ? [...fields, r.state] : [...fields, r.state, r.scope];
}

/** The record as written: signed when the server has a key, else unsigned and never read back. */
export function signOverride(record: UnsignedOverride, trust: StateTrust): OverrideRecord {
  return { ...record, sig: trust.key ? signState(trust.key, KIND, trust.scope, signedFields(record)) : '' };
}

/** The hidden marker; keys in one order, so a record read back writes the same text again. */
export function overrideMarker(record: OverrideRecord): string {
  const { by, at, reason, headSha, fingerprint, commentId, state, scope, sig } = record;
  return stateMarker(KIND, {
    by,
    at,
    reason,
    headSha,
    fingerprint,
    commentId,
    ...(state === undefined ? {} : { state }),
    ...(scope === undefined ? {} : { scope }),
    sig,
  });
}

/** Every well-formed override record in a comment's text: candidates, not yet trusted. */
export function parseOverrideMarkers(body: string): OverrideRecord[] {
  return readStateMarkers(body, KIND).flatMap((candidate) => {
    const parsed = RecordSchema.safeParse(candidate);
    if (!parsed.success) return [];
    const { state, scope, ...rest } = parsed.data;
    return [{ ...rest, ...(state === undefined ? {} : { state }), ...(scope === undefined ? {} : { scope }) }];
  });
}

export type OverrideReading =
  | { kind: 'none' }
  | { kind: 'verified'; record: OverrideRecord }
  /** Something shaped like a record whose signature does not hold: ignored, and worth a log line. */
  | { kind: 'unverified'; count: number };

/** The override a comment records, only if its signature holds for this pull request. */
export function readOverride(body: string | null, trust: StateTrust): OverrideReading {
  const candidates = body === null ? [] : parseOverrideMarkers(body);
  if (candidates.length === 0) return { kind: 'none' };
  const key = trust.key;
  const record = key && candidates.find((r) => verifyState(key, KIND, trust.scope, signedFields(r), r.sig));
  return record ? { kind: 'verified', record } : { kind: 'unverified', count: candidates.length };
}

/**
 * What the reviewed state holds that the override was not granted for: nothing while it applies;
 * `unknown` when the record does not keep its state entry by entry and the digest differs.
 */
export function notCovered(record: OverrideRecord, state: ReviewedState): StateEntry[] | 'unknown' {
  return newSince(summaryFrom(record.fingerprint, record.state), state);
}

/**
 * Whether approving the demand the pull request declares in the catalog would make the review pass:
 * some of it is not measured, and counted as written the pull request would be justified.
 */
export function demandApprovable(result: ReviewResult): boolean {
  const demand = result.catalogDemand;
  return demand !== undefined && demand.declared.some((d) => d.support === null) && demand.verdictWithHeadEntries === 'justified';
}

/** Whether there is anything for an override to change: the check does not pass on its own. */
export function overridable(output: CheckOutput): boolean {
  return output.conclusion === 'failure' || output.conclusion === 'neutral';
}

/** The check with an override applied: passing, and saying by whom and why. */
export function applyOverrideToCheck(output: CheckOutput, record: OverrideRecord): CheckOutput {
  if (!overridable(output)) return output;
  return {
    ...output,
    conclusion: 'success',
    title: `${record.scope === 'demand' ? 'Declared demand approved' : 'Overridden'} by @${record.by}: ${output.title}`.slice(0, 255),
    summary: `${overrideLine(record)}\n\n${output.summary}`,
  };
}

/** The comment with the override shown under the headline and recorded in the marker. */
export function applyOverrideToComment(body: string, record: OverrideRecord): string {
  const section = `> [!NOTE]\n> ${overrideLine(record)}\n\n${overrideMarker(record)}`;
  const lines = body.split('\n');
  const headline = lines.findIndex((l) => l.startsWith('### '));
  if (headline < 0) return `${section}\n\n${body}`;
  lines.splice(headline + 1, 0, '', section);
  return lines.join('\n');
}

function overrideLine(record: OverrideRecord): string {
  const what = record.scope === 'demand' ? '**Declared demand approved**' : '**Overridden**';
  const covers =
    record.scope === 'demand'
      ? 'The approval covers the demand this pull request declares in the catalog, as this review shows it'
      : 'The override covers what this review shows';
  return (
    `${what} by @${md(record.by)} at ${md(record.at)} for head \`${record.headSha.slice(0, 12)}\`: ` +
    `${md(record.reason, 600)}. ${covers}; it lapses when new commits or a new policy ` +
    'add anything that may grow capacity (a GPU change, a file not followed, missing evidence).'
  );
}
