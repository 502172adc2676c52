import type { ChangeReview } from '../domain/index.js';
import { demandChart, demandLegend, demandSentence, demandTable, hourlyPeaks } from './demand.js';
import { MAX_SENTENCE, md } from './escape.js';
import { barsLeftOut, scheduleGantt, scheduleSentence, scheduleTable, todaySchedule } from './schedule.js';

/** A foldable part of the comment: the `<summary>` line (markdown-safe) and its body. */
export interface Section {
  summary: string;
  body: string;
}

/** One picture of a reviewed change, with its facts in text; null when it has nothing to show. */
export type ReviewSection = (review: ChangeReview) => Section | null;

function scheduleSection(review: ChangeReview): Section | null {
  const plan = review.plan;
  if (!plan || plan.schedule.length === 0) return null;
  const proof = plan.optimal
    ? `No schedule has a lower peak: ${md(plan.boundReason, MAX_SENTENCE)}.`
    : `Best schedule found; no schedule can go below ${plan.lowerBound} GPUs: ${md(plan.boundReason, MAX_SENTENCE)}.`;
  const left = barsLeftOut(plan);
  const cut = left > 0 ? `\n\n_The chart draws the first runs; ${left} more are in the table only._` : '';
  const cron = 'Times are UTC: a CronJob using these schedules should set `timeZone: Etc/UTC`.';
  const change = todaySchedule(plan.schedule) ? `today peak ${plan.naivePeakGpus} → proposed ${plan.peakGpus} GPUs` : `peak ${plan.peakGpus} GPUs`;
  return {
    summary: `Staggered schedule for ${md(review.change.name)}: ${change}`,
    body: `${scheduleGantt(plan)}${cut}\n\n${scheduleSentence(plan)} ${proof}\n\n${scheduleTable(plan)}\n\n${cron}`,
  };
}

function demandSection(review: ChangeReview): Section | null {
  const plan = review.plan;
  if (!plan || plan.schedule.length === 0) return null;
  const today = todaySchedule(plan.schedule);
  const input = {
    proposed: hourlyPeaks(plan.schedule),
    today: today ? hourlyPeaks(today) : null,
    before: review.change.gpusBefore,
    after: review.change.gpusAfter,
  };
  const services =
    review.need !== null && review.need !== plan.peakGpus
      ? ` The need of ${review.need} GPUs adds headroom and any services to the runs' peak.`
      : '';
  return {
    summary: `GPUs in use over a day in ${md(review.change.name)} against capacity ${review.change.gpusBefore} → ${review.change.gpusAfter}`,
    body: `${demandChart(input)}\n\n${demandLegend(input)}\n\n${demandSentence(input)}${services}\n\n${demandTable(input)}`,
  };
}

/**
 * The pictures of each reviewed change, in reading order. The utilisation ladder per workload
 * joins this list once the review result carries telemetry; until then there is nothing honest
 * to draw.
 */
export const REVIEW_SECTIONS: readonly ReviewSection[] = [scheduleSection, demandSection];
