import { cronLine, formatWhen } from './clock.js';
import { movedRuns } from '../domain/index.js';
import type { ChangeReview, Finding, OutcomeCost, PlacedRun, PlannedManifest, ReviewResult, StaggerPlan } from '../domain/index.js';
import { code, MAX_SENTENCE, md, prose } from './escape.js';
import { gpusText, pct, unitUsd } from './numbers.js';
import { chronological } from './schedule.js';
import { sharedCount } from './sharing.js';
import { findingText, servingAdvice } from './findings.js';
import { fixFirst, missingWords } from './missing-words.js';
import type { Surface } from './surface.js';

/** Runs, pods or missing items named on the first screen before the rest is counted. */
const MAX_ITEMS = 4;

function where(review: ChangeReview): string {
  return code(`${review.change.file}:${review.change.line}`);
}

/** Where a workload's edit lands: its CronJob's `schedule:` line, else its manifest. */
function manifestAt(m: PlannedManifest | undefined): string {
  if (m === undefined) return '';
  const at = m.schedule ?? m.source;
  return ` (${code(at.line === null ? at.file : `${at.file}:${at.line}`)})`;
}

/**
 * A workload whose manifest has no schedule (a Job, a RayJob …) starts when it is created: say when
 * to create each run, and the CronJob that would do it.
 */
function unscheduledLine(w: string, m: PlannedManifest, own: readonly PlacedRun[], plan: StaggerPlan): string {
  const starts = [...new Set(own.flatMap((r) => r.pieces.map((p) => p.start)))];
  const when = starts.map((s) => `${formatWhen(s, plan.cycle)} UTC`).join(', ');
  const crons = starts.map((s) => code(`schedule: "${cronLine(s, plan.cycle)}"`)).join(', ');
  return `  - ${md(w)} is a ${md(m.kind)}${manifestAt(m)}, which has no schedule: create it at ${when}, or run it from ${starts.length === 1 ? 'a CronJob' : 'CronJobs'} with ${crons}`;
}

/**
 * The CronJob lines for the workloads whose runs the plan moves, and only those (a run that keeps its
 * start needs no edit), each at its manifest's line where one manifest declares it. One CronJob has
 * one schedule, so a workload run several times a cycle whose runs move apart is split into one
 * CronJob a run, each shown; "run 3" alone is no line anyone can edit. A Job has no schedule: it is
 * told when to be created.
 */
function staggerStep(review: ChangeReview): string | null {
  const plan = review.plan;
  if (!plan || plan.peakGpus >= plan.naivePeakGpus) return null;
  const runs = chronological(plan.schedule);
  const moved = movedRuns({ ...plan, schedule: runs });
  if (moved.length === 0) return null;
  const schedules = (r: PlacedRun) => r.pieces.map((p) => code(`schedule: "${cronLine(p.start, plan.cycle)}"`)).join(', then ');
  const workloads = [...new Set(moved.map((r) => r.workload))];
  const lines = workloads.slice(0, MAX_ITEMS).map((w) => {
    const own = runs.filter((r) => r.workload === w);
    const m = plan.manifests?.find((x) => x.workload === w);
    if (m !== undefined && m.schedule === null && m.kind !== 'CronJob') return unscheduledLine(w, m, own, plan);
    if (own.length === 1 && own[0] !== undefined) return `  - ${md(w)}${manifestAt(m)}: ${schedules(own[0])}`;
    // Runs that start together stay one CronJob; each other start is a CronJob of its own.
    const starts = new Map<string, number>();
    for (const r of own) starts.set(schedules(r), (starts.get(schedules(r)) ?? 0) + 1);
    const each = [...starts].map(([line, n]) => (n === 1 ? line : `${line} (${n} runs)`));
    const per = plan.cycle === 1440 ? 'day' : 'week';
    return `  - ${md(w)}${manifestAt(m)} runs ${own.length} times a ${per}; one CronJob has one schedule, so split it into ${starts.size} CronJobs: ${each.join('; ')}`;
  });
  const more = workloads.length > MAX_ITEMS ? `\n  - …and ${workloads.length - MAX_ITEMS} more (the schedule below)` : '';
  return (
    `- Move ${moved.length} run${moved.length === 1 ? '' : 's'} (UTC, with \`timeZone: Etc/UTC\`); peak ${plan.naivePeakGpus} → ${plan.peakGpus} GPUs:\n` +
    `${lines.join('\n')}${more}`
  );
}

function reclaimStep(review: ChangeReview): string | null {
  const pods = review.idlePods ?? [];
  if (pods.length === 0) return null;
  const named = pods
    .slice(0, MAX_ITEMS)
    .map((p) => `${code(`${p.namespace}/${p.pod}`, 120)} (${gpusText(p.gpus)} GPUs, busy ${pct(p.busyFraction)})`);
  const more = pods.length > MAX_ITEMS ? ` and ${pods.length - MAX_ITEMS} more` : '';
  const gpus = pods.reduce((s, p) => s + p.gpus, 0);
  return `- Reclaim ${gpusText(gpus)} idle GPUs from pods outside the catalog: ${named.join(', ')}${more}.`;
}

function borrowStep(review: ChangeReview, finding: Finding): string {
  const d = finding.detail;
  const gpus = d.code === 'borrow-quota' ? (d.borrowed ?? d.gpus) : finding.gpusFreed;
  const limit = review.change.after?.borrowingLimit;
  const hours = 'at the hours it is short, within its lenders’ lendingLimits';
  if (limit !== undefined && limit >= gpus)
    return `- Borrow up to ${gpus} GPUs from the cohort for ${md(review.change.name)} (its \`borrowingLimit: ${limit}\` in ${where(review)} allows it); the cohort leaves them unused ${hours}.`;
  const now = limit === undefined ? 'none set' : `now ${limit}`;
  return `- Set \`borrowingLimit: ${gpus}\` on ${md(review.change.name)}'s GPU flavor in ${where(review)} (${now}); the cohort leaves that many GPUs unused ${hours}.`;
}

function slicesStep(finding: Finding): string | null {
  const d = finding.detail;
  if (d.code !== 'mig' && d.code !== 'time-slicing') return null;
  const how =
    d.code === 'mig'
      ? `partition ${d.gpusSliced} ${md(d.gpuModel)} GPU${d.gpusSliced === 1 ? '' : 's'} into ${code(d.profile ?? '', 40)} MIG instances (${d.perGpu} a GPU) and request \`nvidia.com/mig-${d.profile ?? ''}: 1\` per replica`
      : `time-slice ${d.gpusSliced} ${md(d.gpuModel)} GPU${d.gpusSliced === 1 ? '' : 's'} ${d.perGpu} ways (GPU Operator \`sharing.timeSlicing\`)`;
  return `- ${md(d.workload)}: ${how}; ${d.replicas} replicas on ${d.gpusSliced} GPUs instead of ${d.gpusNow}.`;
}

/** The qualifying alternative with the lowest cost per verified outcome, per workload. */
function cheapest(costs: readonly OutcomeCost[]): OutcomeCost[] {
  const best = new Map<string, OutcomeCost>();
  for (const c of costs) {
    if (c.option === 'current' || !c.qualifies) continue;
    const seen = best.get(c.workload);
    if (!seen || (c.usdPerVerifiedOutcome ?? Infinity) < (seen.usdPerVerifiedOutcome ?? Infinity)) best.set(c.workload, c);
  }
  return [...best.values()];
}

function modelStep(review: ChangeReview): string | null {
  const costs = review.costs ?? [];
  const steps = cheapest(costs).map((alt) => {
    const now = costs.find((c) => c.workload === alt.workload && c.option === 'current');
    const gpus =
      alt.gpus === null ? '' : `: ${alt.gpus} × ${md(alt.gpuType ?? 'GPU')}${now?.gpus == null ? '' : ` instead of ${now.gpus}`}`;
    const price = `${unitUsd(alt.usdPerVerifiedOutcome)} per verified outcome${now ? ` instead of ${unitUsd(now.usdPerVerifiedOutcome)}` : ''}`;
    return `- Switch ${md(alt.workload)} to ${code(alt.option, 80)}${gpus}, ${price}; it meets the quality threshold and the SLO.`;
  });
  return steps.length > 0 ? steps.slice(0, MAX_ITEMS).join('\n') : null;
}

function batchingStep(review: ChangeReview): string | null {
  const limited = (review.serving ?? []).filter((s) => servingAdvice(s) !== null && s.gpusNeeded !== null && s.gpusNeeded < s.declaredGpus);
  if (limited.length === 0) return null;
  return limited
    .slice(0, MAX_ITEMS)
    .map((s) => `- ${md(s.workload)}: ${s.gpusNeeded} GPUs instead of ${s.declaredGpus}; ${prose(servingAdvice(s) ?? '')}.`)
    .join('\n');
}

// Levers that act on the same GPUs: only the stronger of each pair is a step to take.
const RIVAL: Partial<Record<Finding['lever'], Finding['lever']>> = { batching: 'cheaper-model', 'cheaper-model': 'batching' };

/**
 * The levers to act on: those of the combination the verdict rests on, else the strongest that
 * meets the need alone, else every one that frees GPUs.
 */
function chosenLevers(review: ChangeReview): Finding[] {
  const { findings } = review;
  const combination = (review.combination?.levers ?? []).flatMap((l) => {
    const best = findings.filter((f) => f.lever === l).sort((a, b) => b.gpusFreed - a.gpusFreed)[0];
    return best ? [best] : [];
  });
  if (combination.length > 0) return combination;
  const freeing = findings.filter((f) => f.gpusFreed > 0).sort((a, b) => b.gpusFreed - a.gpusFreed);
  const alone = freeing.find((f) => f.meetsNeed);
  if (alone) return [alone];
  const out: Finding[] = [];
  for (const f of freeing) {
    const rival = RIVAL[f.lever];
    if (!out.some((o) => o.lever === f.lever || o.lever === rival)) out.push(f);
  }
  return out;
}

function leverStep(review: ChangeReview, finding: Finding): string | null {
  switch (finding.lever) {
    case 'stagger':
      return staggerStep(review);
    case 'reclaim-idle':
      return reclaimStep(review);
    case 'borrow-quota':
      return borrowStep(review, finding);
    case 'cheaper-model':
      return modelStep(review);
    case 'batching':
      return batchingStep(review);
    case 'mig':
    case 'time-slicing':
      return slicesStep(finding);
  }
}

/** The capacity to write in the file: keep what is there, or ask for less than the PR does. */
function capacityStep(review: ChangeReview): string | null {
  const { change, gpusNeeded } = review;
  if (review.verdict === 'not-justified')
    return `- Keep ${md(change.name)} at ${change.gpusBefore} GPUs${sharedCount(review, change.gpusBefore)} in ${where(review)}: drop the +${change.delta}.`;
  if (review.verdict !== 'partially-justified' || gpusNeeded === null) return null;
  const step = change.after?.gpuStep;
  const fewer = step !== undefined && step > 1 ? (change.delta - gpusNeeded) / step : 0;
  const steps = fewer > 0 ? ` (the pool grows in steps of ${step} GPUs: ${fewer} step${fewer === 1 ? '' : 's'} fewer)` : '';
  return `- Ask for ${change.gpusBefore + gpusNeeded} GPUs (+${gpusNeeded})${sharedCount(review, change.gpusBefore + gpusNeeded)} in ${where(review)} instead of ${change.gpusAfter}${steps}.`;
}

function reviewSteps(review: ChangeReview): string[] {
  if (review.change.delta <= 0) return [];
  // A lever with no step of its own to spell out (idle allocations of a catalog workload) says what it found.
  const steps = chosenLevers(review).map((f) => leverStep(review, f) ?? `- ${md(findingText(f).replace(/\.$/, ''), MAX_SENTENCE)}.`);
  const capacity = capacityStep(review);
  return capacity === null ? steps : [...steps, capacity];
}

/**
 * **Do this**: the exact change, per growing change: the runs to move with their CronJob lines,
 * the idle pods, the `borrowingLimit`, the model to switch to, the capacity to write; or the
 * evidence to add when there is too little to judge. Null when there is nothing to do.
 */
export function doThis(result: ReviewResult, surface: Surface = 'pull-request'): string | null {
  if (result.verdict === 'no-gpu-change') return null;
  if (result.verdict === 'insufficient-evidence') {
    // A fix to make in a file (a typo's correction, the line to fix) before what is to be added.
    const fixes = result.missingEvidence.filter((e) => fixFirst(e) !== null);
    const items = [...fixes, ...result.missingEvidence.filter((e) => !fixes.includes(e))].slice(0, MAX_ITEMS).map((e) => {
      const fix = fixFirst(e);
      if (fix !== null) return `- ${prose(fix)}.`;
      const m = missingWords(e, surface);
      return `- Add ${md(m.what, 200)}: ${prose(m.how)}`;
    });
    const more =
      result.missingEvidence.length > MAX_ITEMS ? `\n- …and ${result.missingEvidence.length - MAX_ITEMS} more (the checklist below)` : '';
    return items.length > 0 ? `**Do this** so it can be judged:\n\n${items.join('\n')}${more}` : null;
  }
  if (result.verdict === 'justified') {
    return result.gpusRequested > 0 ? '**Do this:** nothing; the GPUs asked for are needed.' : null;
  }
  const steps = result.reviews.flatMap(reviewSteps).slice(0, 2 * MAX_ITEMS);
  return steps.length > 0 ? `**Do this:**\n\n${steps.join('\n')}` : null;
}
