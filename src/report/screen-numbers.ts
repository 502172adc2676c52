import type { ChangeReview } from '../domain/index.js';

/** One row of the first screen's table: today, as the PR asks, and as the review recommends. */
interface ScreenRow {
  today: number | null;
  thisPr: number | null;
  recommended: number | null;
}

/**
 * The numbers of the first screen's Today / This PR / Recommended table, for one change. The
 * comment, the check summary and `review --format json` all show these, so they never differ.
 */
export interface ScreenNumbers {
  capacity: ScreenRow;
  /** GPUs borrowed from the cohort on top of the recommended capacity; 0 when none. */
  borrowed: number;
  peakInUse: ScreenRow;
  needWithHeadroom: ScreenRow;
  /** Over the capacity before; `today` is always null (nothing is added today). */
  gpusToAdd: ScreenRow;
}

/**
 * GPUs the workloads hold at their busiest: the batch runs' peak (today's starts or the plan's)
 * plus services at their declared replicas. Null where neither is known, and after levers when
 * services are linked or a lever other than staggering frees GPUs: those change what is held in
 * ways the plan does not show, which the need accounts for.
 */
function peakInUse(review: ChangeReview, staggered: boolean): number | null {
  const plan = review.plan && review.plan.schedule.length > 0 ? review.plan : null;
  const serving = review.serving ?? [];
  const services = serving.reduce((s, x) => s + x.declaredGpus, 0);
  if (staggered && serving.length > 0) return null;
  // Other levers (reclaiming, borrowing) change what runs where in ways the plan does not draw.
  if (staggered && review.findings.some((f) => f.lever !== 'stagger' && f.gpusFreed > 0)) return null;
  if (plan === null) return serving.length > 0 ? services : null;
  return (staggered ? plan.peakGpus : plan.naivePeakGpus) + services;
}

export function screenNumbers(review: ChangeReview): ScreenNumbers {
  const { change } = review;
  const without = review.needWithoutLevers === undefined ? review.need : review.needWithoutLevers;
  const recommended = review.gpusNeeded === null ? null : change.gpusBefore + review.gpusNeeded;
  // Borrowed quota meets part of the need without being capacity of the queue's own.
  const borrow = review.findings.find((f) => f.lever === 'borrow-quota')?.detail;
  const lent = borrow?.code === 'borrow-quota' ? (borrow.borrowed ?? 0) : 0;
  const short = recommended !== null && review.need !== null && review.need > recommended;
  const today = peakInUse(review, false);
  return {
    capacity: { today: change.gpusBefore, thisPr: change.gpusAfter, recommended },
    borrowed: short ? lent : 0,
    peakInUse: { today, thisPr: today, recommended: peakInUse(review, true) },
    needWithHeadroom: { today: without, thisPr: without, recommended: review.need },
    gpusToAdd: { today: null, thisPr: change.delta, recommended: review.gpusNeeded },
  };
}
