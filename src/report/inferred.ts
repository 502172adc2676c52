import type { ChangeReview, DeadlineLadder, DemandProfile, FieldOrigin, InferredWorkload } from '../domain/index.js';
import { formatClockDown } from '../util/clock.js';
import { MAX_SENTENCE, md } from './escape.js';
import { duration, num } from './numbers.js';
import type { Section } from './section.js';

/** `done by 03:00: 12 GPUs; by 04:00: 8 GPUs; the 8 there today finish by 04:00`. */
function deadlineSentence(l: DeadlineLadder): string {
  const rungs = l.rungs.map((r, i) => `${i === 0 ? 'done by' : 'by'} ${formatClockDown(r.deadlineUtc)}: ${r.gpus} GPUs`);
  const today =
    l.capacityDoneBy === null
      ? `the ${l.capacity} there today finish by no time of the day`
      : `the ${l.capacity} there today finish by ${formatClockDown(l.capacityDoneBy)}`;
  return [...rungs, today].join('; ');
}

function demandSentence(d: DemandProfile, before: number): string {
  const pending =
    d.peakPending === null
      ? ''
      : ` (${num(d.peakHeld)} ${d.scope === 'queue' ? 'admitted' : 'requested'} and ${num(d.peakPending)} pending)`;
  const waiting =
    d.peakPendingWorkloads === null || d.peakPending !== null
      ? ''
      : `; up to ${num(d.peakPendingWorkloads)} workloads waited for quota, their GPUs not exported`;
  const daily = before * 24;
  const fits =
    d.gpuHoursPerDay <= daily
      ? `fits the ${num(daily)} the ${before} GPUs there give a day`
      : `is more than the ${num(daily)} the ${before} GPUs there give a day`;
  return (
    `Peak ${num(d.peakDemand)} GPUs at once${pending} over the last ${num(d.days)} days${waiting}. ` +
    `Demand averaged ${num(d.gpuHoursPerDay)} GPU-hours a day, which ${fits}` +
    (d.peakDemand > before && d.gpuHoursPerDay <= daily ? ': spreading the peak over the day (staggering) is worth a look.' : '.')
  );
}

function demandSection(review: ChangeReview): Section | null {
  const d = review.demand;
  const l = review.deadlines;
  if (!d && !l) return null;
  const c = review.change;
  const ladder = l ? `Batch jobs with no deadline (${l.workloads.map((w) => md(w)).join(', ')}): ${deadlineSentence(l)} (UTC).` : null;
  const summary = d
    ? `Observed GPU demand on ${md(c.name)}: peak ${num(d.peakDemand)} GPUs, capacity ${c.gpusBefore} → ${c.gpusAfter}`
    : `What each deadline would need in ${md(c.name)}, capacity ${c.gpusBefore} → ${c.gpusAfter}`;
  return { summary, body: [...(d ? [demandSentence(d, c.gpusBefore)] : []), ...(ladder ? [ladder] : [])].join('\n\n') };
}

/** The fields a checklist line names, each an `InferredField<number>`. */
type NumberField = 'gpus' | 'runtimeMinutes' | 'jobsPerDay' | 'earliestStartUtc' | 'deadlineUtc';

const FIELDS: readonly [NumberField, string][] = [
  ['gpus', 'GPUs'],
  ['runtimeMinutes', 'runtime'],
  ['jobsPerDay', 'runs a day'],
  ['earliestStartUtc', 'earliest start'],
  ['deadlineUtc', 'deadline'],
];

function valueText(key: NumberField, v: number): string {
  if (key === 'runtimeMinutes') return duration(v);
  if (key === 'earliestStartUtc' || key === 'deadlineUtc') return `${formatClockDown(v)} UTC`;
  return String(v);
}

function originText(o: FieldOrigin): string {
  if (o.source === 'telemetry') return `observed over ${o.window ?? 'the window'}`;
  return `${o.source === 'manifest' ? 'from' : 'in the catalog at'} ${md(o.ref, MAX_SENTENCE)}`;
}

/** One checklist line: what the sources gave (to confirm) and what nothing states. */
function confirmLine(w: InferredWorkload): string | null {
  const given: string[] = [];
  const unknown: string[] = [];
  for (const [key, label] of FIELDS) {
    if (w.type === 'inference' && key !== 'gpus') continue;
    const f = w[key];
    if (f.value === null || f.origin === null) unknown.push(label);
    else if (f.origin.source !== 'catalog') given.push(`${label} ${valueText(key, f.value)} (${originText(f.origin)})`);
  }
  if (given.length === 0 && unknown.length === 0) return null;
  const parts = [...(unknown.length > 0 ? [`**unknown: ${unknown.join(', ')}**`] : []), ...given];
  const runs = w.runsObserved > 0 ? `, ${w.runsObserved} runs observed` : '';
  return `- [ ] ${md(w.name)}${w.namespace === null ? '' : ` (${md(w.namespace)})`}${runs}: ${parts.join('; ')}`;
}

/** What to write in a catalog for the change's workloads, and how to draft it locally. */
function confirmSection(review: ChangeReview): Section | null {
  const lines = (review.inferred ?? []).map(confirmLine).filter((l): l is string => l !== null);
  if (lines.length === 0) return null;
  // With a catalog, the lines are entries it leaves `unknown`, filled: writing the values confirms them.
  const inCatalog = review.plan !== undefined;
  return {
    summary: `To confirm in a catalog for ${md(review.change.name)} (${lines.length})`,
    body:
      `${lines.join('\n')}\n\n` +
      (inCatalog
        ? 'The catalog leaves these fields `unknown`; the review uses the values shown until the catalog states them.'
        : 'To draft the catalog, run `gpu-justify init` in a local checkout of this repository: ' +
          'it writes these workloads from their manifests with every value commented by its source, and marks what to confirm; ' +
          'with `--prometheus <url>` it adds the runtimes and start times their runs show, and the GPU jobs no manifest declares.'),
  };
}

/** The sections of a review judged without a catalog, in reading order. */
export const INFERRED_SECTIONS = [demandSection, confirmSection] as const;
