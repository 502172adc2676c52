import type { CapacityChange, Evidence } from '../domain/index.js';
import { measureKey } from '../domain/index.js';
import type { Measured } from './measured.js';
import { minOf, timelinesBy } from './series.js';

export interface Borrowable {
  cohort: string;
  /** GPUs of nominal quota the cohort's other queues left unused at every point of the window. */
  gpus: number;
  /** Other queues and the least each left unused. */
  lenders: { queue: string; unused: number }[];
  evidence: Evidence[];
}

/**
 * Unused quota in the ClusterQueue's cohort: at each time, the other queues' nominal quota less
 * their admitted usage, summed; the least of that over the window is what a `borrowingLimit` can
 * reach at any hour. Times where some queue's usage is not reported are left out rather than
 * read as zero; with none left, nothing is claimed. Lending limits the other queues set are not
 * exported and may lower it; the finding says so.
 */
export function borrowableQuota(change: CapacityChange, m: Measured): Borrowable | null {
  if (change.kind !== 'kueue-cluster-queue') return null;
  const cohort = change.after?.cohort ?? change.before?.cohort;
  if (cohort === undefined) return null;
  const nominalAnswer = m.answer(measureKey('cohort-nominal-quota', `queue:${change.name}`));
  const usageAnswer = m.answer(measureKey('cohort-usage', `queue:${change.name}`));
  if (nominalAnswer === undefined || usageAnswer === undefined) return null;
  const nominal = timelinesBy(nominalAnswer, 'cluster_queue');
  const usage = timelinesBy(usageAnswer, 'cluster_queue');
  const others = [...nominal.keys()].filter((q) => q !== change.name);
  if (others.length === 0) return null;
  const quota = new Map(others.map((q) => [q, minOf(nominal.get(q) ?? new Map<number, number>()) ?? 0]));
  const times = [...(usage.get(others[0] as string) ?? new Map<number, number>()).keys()].filter((t) =>
    others.every((q) => usage.get(q)?.has(t)),
  );
  if (times.length === 0) return null;
  const unusedAt = (q: string, t: number) => Math.max(0, (quota.get(q) ?? 0) - (usage.get(q)?.get(t) ?? 0));
  const total = Math.min(...times.map((t) => others.reduce((s, q) => s + unusedAt(q, t), 0)));
  return {
    cohort,
    gpus: Math.floor(total + 1e-9),
    lenders: others.map((q) => ({ queue: q, unused: Math.min(...times.map((t) => unusedAt(q, t))) })),
    evidence: [nominalAnswer.evidence, usageAnswer.evidence],
  };
}
