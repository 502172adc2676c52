import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ReviewResult } from '../domain/review.js';
import type { CheckOutput } from '../report/check.js';
import { md } from '../report/escape.js';

/**
 * An accepted `/gpu-justify override`: who, when, why, for which head, and a fingerprint of the
 * GPU request it was granted for. It lives in the sticky comment as a hidden marker, so it
 * survives restarts and is visible to anyone reading the comment's source.
 */
export interface OverrideRecord {
  by: string;
  /** ISO 8601 time it was granted. */
  at: string;
  reason: string;
  headSha: string;
  /** What the GPU request was; the override lapses when it differs. */
  fingerprint: string;
}

const OVERRIDE_PREFIX = '<!-- gpu-justify:override ';
const OVERRIDE_RE = /<!-- gpu-justify:override (\{.*?\}) -->/;

const RecordSchema = z.object({
  by: z.string().min(1).max(100),
  at: z.string().max(40),
  reason: z.string().max(1000),
  headSha: z.string().regex(/^[0-9a-f]{40}$/i),
  fingerprint: z.string().regex(/^[0-9a-f]{16,64}$/),
});

/**
 * The GPU request the review judged: every capacity change's place and numbers. New commits that
 * leave it alone (a README fix) keep an override; any change to a quota or pool size drops it.
 */
export function requestFingerprint(result: ReviewResult): string {
  const parts = result.changes.map((c) => [c.file, c.kind, c.name, c.gpuModel ?? '', c.gpusBefore, c.gpusAfter].join('\u0000')).sort();
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
}

/**
 * The hidden marker; `<` and `>` are escaped so no reason can close the HTML comment. Keys in one
 * order, so a record read back from a comment writes the same text as the grant it came from.
 */
export function overrideMarker(record: OverrideRecord): string {
  const { by, at, reason, headSha, fingerprint } = record;
  const json = JSON.stringify({ by, at, reason, headSha, fingerprint }).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `${OVERRIDE_PREFIX}${json} -->`;
}

/** The override recorded in a comment we wrote, if any and well-formed. */
export function parseOverrideMarker(body: string): OverrideRecord | null {
  const json = OVERRIDE_RE.exec(body)?.[1];
  if (json === undefined) return null;
  try {
    const parsed = RecordSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** An override applies only while the GPU request is the one it was granted for. */
export function overrideStillApplies(record: OverrideRecord | null, result: ReviewResult): boolean {
  return record !== null && record.fingerprint === requestFingerprint(result);
}

/** The override a comment of ours records, when it still applies to this review's GPU request. */
export function recordedOverride(body: string | null, result: ReviewResult): OverrideRecord | null {
  const recorded = body === null ? null : parseOverrideMarker(body);
  return overrideStillApplies(recorded, result) ? recorded : null;
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
    title: `Overridden by @${record.by}: ${output.title}`.slice(0, 255),
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
  return (
    `**Overridden** by @${md(record.by)} at ${md(record.at)} for head \`${record.headSha.slice(0, 12)}\`: ` +
    `${md(record.reason, 600)}. The override lapses when new commits change the GPU request.`
  );
}
