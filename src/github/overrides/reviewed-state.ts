import { createHmac } from 'node:crypto';
import type { CapacityChange, CapacityDecl, CapacityPart, FileCoverage, MissingEvidence, ReviewResult } from '../../domain/index.js';
import { missingKey } from '../../domain/index.js';
import type { LoadedPolicy } from '../../review/index.js';
import type { StateKey } from './state-signature.js';
import { memberTermsOf, termsOf } from './state-terms.js';
import type { TermItem } from './state-terms.js';

/**
 * Everything a review put before its reader that a grant covers: every capacity change (file,
 * kind, name, GPU model, before and after), every changed file it could not follow, every piece of
 * evidence it lacks, and the policy that judged it. An override binds to it whole, so anything new
 * that may grow capacity lapses the grant, while commits that add nothing here (a docs edit, a
 * CPU-only change) leave it standing.
 */
export type StateEntry =
  | { kind: 'change'; change: CapacityChange }
  /** One part of a change at head (a Kueue flavor, a node group), its GPUs and increase on their own. */
  | { kind: 'part'; change: CapacityChange; part: CapacityPart; before: number }
  /**
   * What a head declaration grants beside its count: a cohort, its limits, sharing; of a change,
   * or of a queue of a cohort whose count did not change (`change` absent).
   */
  | { kind: 'term'; where: TermSite; change?: CapacityChange; item: TermItem }
  | { kind: 'not-followed'; coverage: FileCoverage }
  | { kind: 'missing'; missing: MissingEvidence }
  | { kind: 'policy' };

/** The declaration a term belongs to, as the state names it. */
export type TermSite = Pick<CapacityDecl, 'file' | 'kind' | 'name' | 'gpuModel'>;

/** What a record in our comment keeps of a reviewed state. */
export interface StateSummary {
  /** A keyed digest of every entry whole: equal digests, equal states. */
  digest: string;
  /**
   * One token per entry, sorted (see `tokenOf`); null when there were more than a record holds,
   * and then only an equal digest binds.
   */
  tokens: string[] | null;
}

export interface ReviewedState extends StateSummary {
  entries: { token: string; entry: StateEntry }[];
}

/** Tokens a record holds at most: a few KB in the comment, far above a PR anyone overrides. */
const MAX_TOKENS = 300;

/** Hex digits of an entry's keyed hash: 48 bits a pull request cannot search offline without the key. */
const TOKEN_HEX = 12;

/** The text a token is, as read back: what `tokenOf` writes and nothing else. */
export const TOKENS_RE = /^(?:[cnmpt][0-9a-f]{12}(?::-?\d+(?:\.\d+)?:-?\d+(?:\.\d+)?)?(?:,|$))*$/;

/**
 * The state a review judged, keyed by the server's state key so that a pull request cannot choose
 * names whose tokens collide with the ones a grant covers.
 */
export function reviewedState(result: ReviewResult, policy: LoadedPolicy, key: StateKey | null): ReviewedState {
  const mac = (text: string): string =>
    createHmac('sha256', key ?? UNKEYED)
      .update(text)
      .digest('hex');
  const canon: { text: string; token: string; entry: StateEntry }[] = [];
  for (const change of result.changes) {
    const identity = JSON.stringify([change.file, change.kind, change.name, change.gpuModel ?? '']);
    const text = JSON.stringify(['change', identity, change.gpusBefore, change.gpusAfter]);
    const token = `c${mac(identity).slice(0, TOKEN_HEX)}:${num(change.gpusAfter)}:${num(change.delta)}`;
    canon.push({ text, token, entry: { kind: 'change', change } });
    // Each part on its own too: GPUs moved to another flavor or node group (`a100` → `h100`, a
    // total no larger) are GPUs the approver did not see there, never a smaller change.
    for (const part of change.after?.parts ?? []) {
      const before = sumOf((change.before?.parts ?? []).filter((p) => samePart(p, part)));
      const partIdentity = JSON.stringify([change.file, change.kind, change.name, change.gpuModel ?? '', part.label, part.resource]);
      const partText = JSON.stringify(['part', partIdentity, before, part.gpus]);
      const partToken = `c${mac(partIdentity).slice(0, TOKEN_HEX)}:${num(part.gpus)}:${num(part.gpus - before)}`;
      canon.push({ text: partText, token: partToken, entry: { kind: 'part', change, part, before } });
    }
    // What the count does not show: a cohort joined or swapped, a borrowing or lending limit
    // raised or dropped, sharing replicas raised. A bounded term binds like a count (a lower
    // limit is covered); any other binds by equal text.
    for (const item of termsOf(change)) canon.push(termEntry(mac, change, item, change));
  }
  // The other queues of a cohort too, counts unchanged: one that joins it, or lends or may borrow
  // more than at base, gives a changed queue of that cohort more than the approver saw. Only what
  // the pull request loosens: a member's file touched and left as the base has it adds nothing.
  for (const member of result.cohortMembers ?? []) {
    const before = member.base === undefined ? [] : memberTermsOf(member.base);
    for (const item of memberTermsOf(member.head)) {
      if (!before.some((b) => covers(b, item))) canon.push(termEntry(mac, member.head, item));
    }
  }
  for (const coverage of result.coverage ?? []) {
    if (coverage.state !== 'not-followed') continue;
    // Its bytes too: an edit that keeps every name and line of a file not followed is still new.
    const text = JSON.stringify(['not-followed', coverage.file, coverage.notFollowed ?? [], coverage.content ?? null]);
    canon.push({ text, token: `n${mac(text).slice(0, TOKEN_HEX)}`, entry: { kind: 'not-followed', coverage } });
  }
  for (const missing of result.missingEvidence) {
    // A file not followed is its coverage entry above.
    if ('code' in missing && missing.code === 'not-followed') continue;
    // What telemetry states in words may carry counts that move with the window (samples not
    // finite, queries unanswered): the same gap is the same entry, whatever its numbers.
    const text = JSON.stringify(['missing', 'code' in missing ? missingKey(missing) : missingKey(missing).replace(/\d+(\.\d+)?/g, '#')]);
    canon.push({ text, token: `m${mac(text).slice(0, TOKEN_HEX)}`, entry: { kind: 'missing', missing } });
  }
  // The policy as it judged: its values, its errors, and the files it could not read.
  const judged = JSON.stringify(['policy', policy.policy, policy.diagnostics.filter((d) => d.severity === 'error'), policy.unread ?? []]);
  canon.push({ text: judged, token: `p${mac(judged).slice(0, TOKEN_HEX)}`, entry: { kind: 'policy' } });

  // Entries in the order a reader wants them (changes, files not followed, evidence, policy); tokens sorted.
  const unique = [...new Map(canon.map((c) => [c.token, c])).values()];
  const digest = mac(JSON.stringify(canon.map((c) => c.text).sort())).slice(0, 32);
  const tokens = unique.map((c) => c.token).sort();
  return {
    digest,
    tokens: tokens.length <= MAX_TOKENS ? tokens : null,
    entries: unique.map(({ token, entry }) => ({ token, entry })),
  };
}

/**
 * What the state now holds that the one granted did not: nothing when the digests agree or every
 * entry is one granted (a capacity change within what was granted: no more GPUs after it, no larger
 * increase); `unknown` when the granted state is not known entry by entry.
 */
export function newSince(granted: StateSummary, now: ReviewedState): StateEntry[] | 'unknown' {
  if (granted.digest === now.digest) return [];
  if (granted.tokens === null) return 'unknown';
  const exact = new Set(granted.tokens);
  const changes = new Map<string, { after: number; delta: number }[]>();
  for (const t of granted.tokens) {
    const change = parseChangeToken(t);
    if (change) changes.set(change.id, [...(changes.get(change.id) ?? []), change]);
  }
  const within = (token: string): boolean => {
    if (exact.has(token)) return true;
    const change = parseChangeToken(token);
    return change !== null && (changes.get(change.id) ?? []).some((g) => change.after <= g.after && change.delta <= g.delta);
  };
  return now.entries.filter((e) => !within(e.token)).map((e) => e.entry);
}

/** Whether the state now holds nothing the one granted did not. */
export function nothingNew(granted: StateSummary, now: ReviewedState): boolean {
  const news = newSince(granted, now);
  return news !== 'unknown' && news.length === 0;
}

/** The same state written as a record keeps it. */
export function summaryOf(state: StateSummary): { fingerprint: string; state?: string } {
  return { fingerprint: state.digest, ...(state.tokens === null ? {} : { state: state.tokens.join(',') }) };
}

/** A record's fields read back as a summary; `state` absent: only the digest is known. */
export function summaryFrom(fingerprint: string, state: string | undefined): StateSummary {
  return { digest: fingerprint, tokens: state === undefined ? null : state === '' ? [] : state.split(',') };
}

/** What a grant covered of a change or part that grew: its GPUs after and its increase, for the lapse note. */
export function grantedFor(granted: StateSummary, now: ReviewedState, entry: StateEntry): { after: number; delta: number } | null {
  const token = now.entries.find((e) => e.entry === entry)?.token;
  const id = token ? parseChangeToken(token)?.id : undefined;
  if (id === undefined || granted.tokens === null) return null;
  const found = granted.tokens.map(parseChangeToken).find((c) => c?.id === id);
  return found ? { after: found.after, delta: found.delta } : null;
}

/** A term as the state keeps it: a bounded term binds like a count (a lower limit is covered), any other by equal text. */
function termEntry(
  mac: (text: string) => string,
  where: TermSite,
  item: TermItem,
  change?: CapacityChange,
): { text: string; token: string; entry: StateEntry } {
  const identity = JSON.stringify([where.file, where.kind, where.name, where.gpuModel ?? '', ...item.identity]);
  const text = JSON.stringify(['term', identity, item.bounded ?? null]);
  const token =
    item.bounded === undefined
      ? `t${mac(text).slice(0, TOKEN_HEX)}`
      : `c${mac(identity).slice(0, TOKEN_HEX)}:${num(item.bounded)}:${num(item.bounded)}`;
  const site: TermSite = { file: where.file, kind: where.kind, name: where.name, gpuModel: where.gpuModel };
  return { text, token, entry: { kind: 'term', where: site, ...(change === undefined ? {} : { change }), item } };
}

/** Whether a base term already gives what a head term does: the same term, a bounded one no lower. */
function covers(base: TermItem, head: TermItem): boolean {
  if (JSON.stringify(base.identity) !== JSON.stringify(head.identity)) return false;
  return head.bounded === undefined || (base.bounded !== undefined && head.bounded <= base.bounded);
}

function samePart(a: CapacityPart, b: CapacityPart): boolean {
  return a.label === b.label && a.resource === b.resource;
}

function sumOf(parts: readonly CapacityPart[]): number {
  return parts.reduce((sum, p) => sum + p.gpus, 0);
}

/** A GPU count as a token writes it: whole, or to four decimals (MIG slices), never in exponent form. */
function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(4);
}

function parseChangeToken(token: string): { id: string; after: number; delta: number } | null {
  const match = /^(c[0-9a-f]+):(-?\d+(?:\.\d+)?):(-?\d+(?:\.\d+)?)$/.exec(token);
  if (!match) return null;
  return { id: match[1] ?? '', after: Number(match[2]), delta: Number(match[3]) };
}

/** Without a key nothing read back is trusted; the digest then only names the state. */
const UNKEYED = 'gpu-justify reviewed state';
