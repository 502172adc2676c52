import type { CapacityChange, CapacityDecl, CapacityPart } from '../../domain/index.js';

/**
 * What a declaration grants beyond its own GPU count: the Kueue cohort a queue borrows from and
 * lends to, the limits on that borrowing and lending, and the sharing that advertises each GPU
 * several times. None of these moves the count a grant binds to, yet each may give a queue or a
 * pool more GPUs than the approver saw: a queue moved into a larger cohort, its borrowing limit
 * raised or dropped, a pool's time-slicing replicas doubled.
 */
type StateTerm =
  /** The cohort the queue is in at head; another one (or one at all) is new. */
  | { term: 'cohort'; cohort: string }
  /** GPUs the queue (or one flavor of it) may borrow from its cohort; null: no limit. */
  | { term: 'borrowing'; part: CapacityPart | null; limit: number | null }
  /** GPUs the queue (or one flavor of it) lends its cohort at most; null: all of its quota. */
  | { term: 'lending'; part: CapacityPart | null; limit: number | null }
  /** Schedulable GPUs per physical GPU; null: the factor is not known (`code` says why). */
  | { term: 'sharing'; mode: string; factor: number | null; code?: string };

/**
 * One term as the reviewed state keeps it: `bounded` terms bind by a number a later review may
 * lower and still be covered (a tighter limit, fewer replicas); the others only by equal text.
 */
export interface TermItem {
  term: StateTerm;
  /** What names the term within its change: the same at both reviews for the same term. */
  identity: unknown[];
  /** The number it binds by, where a smaller one is covered; absent: only an equal term is. */
  bounded?: number;
}

/**
 * A limit that is not set, written as a number no GPU count reaches (counts over 1,000,000 are
 * errors), so that dropping a limit reads as raising it past anything granted.
 */
export const NO_LIMIT = 1_000_000_000;

/** The terms of a change's head declaration; none for a declaration that is gone at head. */
export function termsOf(change: CapacityChange): TermItem[] {
  const decl = change.after;
  if (decl === undefined) return [];
  return [...cohortTerms(decl), ...sharingTerms(decl)];
}

/**
 * The cohort terms of a queue whose count did not change: its membership and limits, which give
 * the changed queues of its cohort more to borrow when raised, dropped or newly joined.
 */
export function memberTermsOf(decl: CapacityDecl): TermItem[] {
  return cohortTerms(decl);
}

function cohortTerms(decl: CapacityDecl): TermItem[] {
  // Outside a cohort a queue neither borrows nor lends: its limits bind nothing until it joins
  // one, and joining is itself a new term.
  if (decl.cohort === undefined) return [];
  const out: TermItem[] = [{ term: { term: 'cohort', cohort: decl.cohort }, identity: ['cohort', decl.cohort] }];
  const parts = decl.parts.length > 0 ? decl.parts : null;
  for (const field of ['borrowing', 'lending'] as const) {
    const key = field === 'borrowing' ? 'borrowingLimit' : 'lendingLimit';
    if (parts === null) {
      const limit = decl[key] ?? null;
      out.push({ term: { term: field, part: null, limit }, identity: [field], bounded: limit ?? NO_LIMIT });
      continue;
    }
    for (const part of parts) {
      const limit = part[key] ?? null;
      out.push({ term: { term: field, part, limit }, identity: [field, part.label, part.resource], bounded: limit ?? NO_LIMIT });
    }
  }
  return out;
}

function sharingTerms(decl: CapacityDecl): TermItem[] {
  const s = decl.sharing;
  if (s === undefined) return [];
  if (s.state === 'shared') {
    return [{ term: { term: 'sharing', mode: s.mode, factor: s.factor }, identity: ['sharing', s.mode], bounded: s.factor }];
  }
  return [{ term: { term: 'sharing', mode: 'unknown', factor: null, code: s.code }, identity: ['sharing', 'unknown', s.code] }];
}
