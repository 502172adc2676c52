import { cycleWord } from '../analysis/index.js';
import type { ChangeReview } from '../domain/index.js';
import { LADDER_NOTE, ladderFlags, ladderTable, measuredLadders } from './ladder.js';
import { costTable, runtimeTable, servingTable } from './measured-tables.js';
import { gpusText, num, pct } from './numbers.js';
import { demandChart, demandLegend, demandSentence, demandTable, hourlyPeaks } from './demand.js';
import { idlePodsBody } from './idle-pods.js';
import { INFERRED_SECTIONS } from './inferred.js';
import { MAX_SENTENCE, md } from './escape.js';
import { barsLeftOut, scheduleGantt, scheduleSentence, scheduleTable, todaySchedule } from './schedule.js';
import { boundText } from './bound-proof.js';
import type { Section } from './section.js';

/** One picture of a reviewed change, with its facts in text; null when it has nothing to show. */
export type ReviewSection = (review: ChangeReview) => Section | null;

function scheduleSection(review: ChangeReview): Section | null {
  const plan = review.plan;
  if (!plan || plan.schedule.length === 0) return null;
  const proof = plan.optimal
    ? `No schedule has a lower peak: ${md(boundText(plan.boundProof), MAX_SENTENCE)}.`
    : `Best schedule found; no schedule can go below ${plan.lowerBound} GPUs: ${md(boundText(plan.boundProof), MAX_SENTENCE)}.`;
  const left = barsLeftOut(plan);
  const cut = left > 0 ? `\n\n_The chart draws the first runs; ${left} more are in the table only._` : '';
  const cron = 'Times are UTC: a CronJob using these schedules should set `timeZone: Etc/UTC`.';
  const change = todaySchedule(plan.schedule)
    ? `today peak ${plan.naivePeakGpus} → proposed ${plan.peakGpus} GPUs`
    : `peak ${plan.peakGpus} GPUs`;
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
    proposed: hourlyPeaks(plan.schedule, plan.cycle),
    today: today ? hourlyPeaks(today, plan.cycle) : null,
    before: review.change.gpusBefore,
    after: review.change.gpusAfter,
    need: review.need,
    cycle: plan.cycle,
  };
  const services =
    review.need !== null && review.need !== plan.peakGpus
      ? ` The need of ${review.need} GPUs adds headroom and any services to the runs' peak.`
      : '';
  return {
    summary: `GPUs in use over a ${cycleWord(plan.cycle)} in ${md(review.change.name)} against capacity ${review.change.gpusBefore} → ${review.change.gpusAfter}`,
    body: `${demandChart(input)}\n\n${demandLegend(input)}\n\n${demandSentence(input)}${services}\n\n${demandTable(input)}`,
  };
}

/** The utilisation ladder of the pool or queue and each linked workload: why any is flagged, then the table. */
function ladderSection(review: ChangeReview): Section | null {
  const ladders = measuredLadders(review.ladders);
  if (ladders.length === 0) return null;
  const scope = ladders.find((l) => l.scope !== 'workload') ?? ladders[0];
  const busy = scope?.busyFraction ?? null;
  const flagged = ladders.filter((l) => l.flags.length > 0).length;
  const head = `Utilisation ladder of ${md(review.change.name)}: busy ${pct(busy)} of ${num(scope?.allocatedGpuHours ?? null)} allocated GPU-hours`;
  return {
    summary: flagged > 0 ? `${head}, ${flagged} flagged` : head,
    body: [ladderFlags(ladders), ladderTable(ladders), LADDER_NOTE].filter((part) => part !== '').join('\n\n'),
  };
}

/** Replicas each service needs at its observed peak, from its load test. */
function servingSection(review: ChangeReview): Section | null {
  const serving = review.serving ?? [];
  if (serving.length === 0) return null;
  const needed = serving.reduce<number | null>((sum, s) => (sum === null || s.gpusNeeded === null ? null : sum + s.gpusNeeded), 0);
  const declared = serving.reduce((sum, s) => sum + s.declaredGpus, 0);
  const sized = needed === null ? 'not all sized' : `need with headroom ${needed} GPUs at the observed peak, ${declared} declared`;
  const limits = serving.filter((s) => s.limit !== null).map((s) => `${md(s.workload)} is limited by ${s.limit}`);
  return {
    summary: `Serving capacity in ${md(review.change.name)}: ${sized}`,
    body: `${servingTable(serving)}${limits.length > 0 ? `\n\n${limits.slice(0, 10).join('; ')}: a configuration change, not more GPUs.` : ''}`,
  };
}

/** Cost per verified outcome of each service as it runs and of each alternative. */
function costSection(review: ChangeReview): Section | null {
  const costs = review.costs ?? [];
  if (costs.length === 0) return null;
  const cheaper = costs.filter((c) => c.option !== 'current' && c.qualifies).length;
  return {
    summary: `Cost per verified outcome in ${md(review.change.name)}: ${cheaper} qualifying alternative(s)`,
    body: `${costTable(costs)}\n\nAn alternative qualifies when it meets the quality threshold and the SLO at the observed peak; its GPUs are the replicas it needs there.`,
  };
}

/** Documented runtimes against the ones telemetry shows. */
function runtimeSection(review: ChangeReview): Section | null {
  const runtimes = review.runtimes ?? [];
  if (runtimes.length === 0) return null;
  const off = runtimes.filter((r) => r.differs).length;
  return {
    summary: `Runtimes in ${md(review.change.name)}: ${off} of ${runtimes.length} off by more than 25%`,
    body: `${runtimeTable(runtimes)}\n\nObserved: GPU-hours its Running pods held over the window ÷ (its runs in the window, on the days it runs, × GPUs per run); time Pending is queueing, not runtime. A longer observed runtime is what the plan uses.`,
  };
}

/** Pods outside the catalog holding idle GPUs of the changed pool: what the reclaim lever names. */
function idlePodsSection(review: ChangeReview): Section | null {
  const body = idlePodsBody(review);
  if (body === null) return null;
  const pods = review.idlePods ?? [];
  const gpus = pods.reduce((s, p) => s + p.gpus, 0);
  return { summary: `Idle pods outside the catalog in ${md(review.change.name)}: ${pods.length} holding ${gpusText(gpus)} GPUs`, body };
}

/** The pictures and measured tables of each reviewed change, in reading order. */
export const REVIEW_SECTIONS: readonly ReviewSection[] = [
  scheduleSection,
  demandSection,
  ladderSection,
  idlePodsSection,
  servingSection,
  costSection,
  runtimeSection,
  ...INFERRED_SECTIONS,
];
