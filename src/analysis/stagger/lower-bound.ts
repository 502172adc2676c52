import type { BoundProof, StaggerJob } from '../../domain/index.js';
import { arcEnergy, type ArcEnergy } from './arc-energy.js';
import { DAY, ceilDiv, gcd } from './circle.js';
import { validateJobs } from './errors.js';
import { buildModel, type GridJob, type GridModel } from './grid.js';
import { spanOf } from './proof-reasons.js';
import { windowSpan } from './slot-caps.js';
import { itemAt } from '../../util/indexed.js';

/** Per-slot arrays cover the cycle, energies one row of the GPU sizes per arc; a window holds its run. */
const SIZED = 'arrays-sized-by-the-slots-arcs-and-gpu-sizes-of-the-model';

export interface LowerBound {
  value: number;
  reason: BoundProof;
}

/**
 * A proven lower bound on the peak GPUs of any schedule meeting every window (splits of
 * interruptible jobs included), with the reason in a sentence. The largest of:
 * - the largest job's GPUs;
 * - energetic reasoning: for an arc of the cycle, the work every job must do inside it, whatever
 *   its start, divided by the arc's length (the whole cycle gives total GPU-minutes / its minutes);
 * rounded up to a multiple of the GPUs' gcd, since usage is always a sum of job sizes;
 * then raised while the runs too big to share the bound's GPUs cannot take turns (below).
 * Measured on the planner's grid (grid.ts), where every release, deadline and duration falls;
 * `prepared` may carry the arcs' energy when the caller already has it (and with it the cycle).
 */
export function lowerBound(jobs: StaggerJob[], prepared?: ArcEnergy, cycle: number = prepared?.model.cycle ?? DAY): LowerBound {
  validateJobs(jobs, cycle);
  const first = jobs[0];
  if (first === undefined) return { value: 0, reason: { code: 'no-runs', value: 0 } };

  const largest = jobs.reduce((a, b) => (b.gpus > a.gpus ? b : a), first);
  let best: LowerBound = {
    value: largest.gpus,
    reason: { code: 'largest-job', value: largest.gpus, workload: largest.workload, gpus: largest.gpus },
  };
  const arcs = prepared ?? arcEnergy(buildModel(jobs, cycle));
  const { model, sizes, energy } = arcs;
  const width = sizes.length;
  arcs.arcs.forEach(([a, m], x) => {
    let work = 0;
    for (let i = 0; i < width; i++) work += itemAt(sizes, i, SIZED) * itemAt(energy, x * width + i, SIZED);
    const value = ceilDiv(work, m);
    if (value <= best.value) return;
    best = { value, reason: { code: 'work', value, span: spanOf(model, a, m), gpuMinutes: work * model.step } };
  });

  const beside = besideCompulsory(jobs, model);
  if (beside !== null && beside.value > best.value) best = beside;

  return disjunctiveBound(jobs, arcs, roundToUnit(jobs, best));
}

/**
 * Some runs cannot avoid part of the cycle (a run whose latest start is before its earliest end
 * always covers the slots in between: its compulsory part). Wherever another run starts, it
 * meets the compulsory parts of the others covering its slots; the least such crowd over its
 * starts, plus its own GPUs, bounds the peak. The "largest job" bound is the case of no crowd.
 */
function besideCompulsory(jobs: readonly StaggerJob[], model: GridModel): LowerBound | null {
  const n = model.slots;
  const compulsory = (j: GridJob): [number, number] | null => {
    if (j.splittable) return j.len >= windowSpan(j, n) ? [j.lo, j.lo + j.len] : null;
    return j.hi < j.lo + j.len ? [j.hi, j.lo + j.len] : null;
  };
  const crowd = new Int32Array(n);
  for (const j of model.jobs) {
    const part = compulsory(j);
    if (part === null) continue;
    for (let t = part[0]; t < part[1]; t++) crowd[t % n] = itemAt(crowd, t % n, SIZED) + j.gpus;
  }
  let best: { value: number; index: number; beside: number } | null = null;
  for (const [index, j] of model.jobs.entries()) {
    const own = compulsory(j);
    const others = (t: number): number => {
      const mine = own !== null && (((t - own[0]) % n) + n) % n < own[1] - own[0] ? j.gpus : 0;
      return itemAt(crowd, t % n, SIZED) - mine;
    };
    let least = Infinity;
    if (j.splittable) {
      // Its len least crowded slots: the len-th smallest crowd in the window.
      const seen: number[] = [];
      for (let t = j.lo; t < j.lo + windowSpan(j, n); t++) seen.push(others(t));
      seen.sort((x, y) => x - y);
      least = itemAt(seen, j.len - 1, SIZED);
    } else {
      for (let s = j.lo; s <= j.hi && least > 0; s++) {
        let top = 0;
        for (let t = s; t < s + j.len; t++) top = Math.max(top, others(t));
        least = Math.min(least, top);
      }
    }
    if (least > 0 && (best === null || least + j.gpus > best.value)) best = { value: least + j.gpus, index, beside: least };
  }
  if (best === null) return null;
  const { value, index, beside } = best;
  const job = jobs[index];
  if (job === undefined) return null;
  return {
    value,
    reason: { code: 'beside-compulsory', value, workload: job.workload, gpus: job.gpus, beside },
  };
}

/**
 * The part of the bound that needs no arcs: the largest job, the whole cycle's work and runs
 * beside compulsory parts, rounded up to the jobs' GPU multiple. When a schedule already meets
 * it, the arcs are never measured.
 */
export function quickBound(jobs: readonly StaggerJob[], model: GridModel): LowerBound {
  const first = jobs[0];
  if (first === undefined) return { value: 0, reason: { code: 'no-runs', value: 0 } };
  const largest = jobs.reduce((a, b) => (b.gpus > a.gpus ? b : a), first);
  let best: LowerBound = {
    value: largest.gpus,
    reason: { code: 'largest-job', value: largest.gpus, workload: largest.workload, gpus: largest.gpus },
  };
  const work = model.jobs.reduce((sum, j) => sum + j.gpus * j.len, 0);
  const day = ceilDiv(work, model.slots);
  if (day > best.value)
    best = {
      value: day,
      reason: { code: 'work', value: day, span: { whole: true, cycle: model.cycle }, gpuMinutes: work * model.step },
    };
  const beside = besideCompulsory(jobs, model);
  if (beside !== null && beside.value > best.value) best = beside;
  return roundToUnit(jobs, best);
}

function roundToUnit(jobs: readonly StaggerJob[], best: LowerBound): LowerBound {
  const unit = jobs.reduce((g, j) => gcd(g, j.gpus), 0);
  const rounded = ceilDiv(best.value, unit) * unit;
  return rounded > best.value ? { value: rounded, reason: { code: 'multiple-of', value: rounded, unit, inner: best.reason } } : best;
}

/**
 * Within C GPUs no two runs of more than C/2 GPUs can run side by side, so those runs must take
 * turns: if, in some arc, the time they must spend there adds up to more than the arc, the
 * peak exceeds C. The set of such runs only stays the same until C reaches twice the smallest
 * of them, so the bound jumps there and tries again.
 */
function disjunctiveBound(jobs: readonly StaggerJob[], arcs: ArcEnergy, start: LowerBound): LowerBound {
  const { model, sizes, energy } = arcs;
  const width = sizes.length;
  let best = start;
  for (;;) {
    const c = best.value;
    const big = jobs.filter((j) => 2 * j.gpus > c);
    if (big.length < 2) return best;
    const smallest = Math.min(...big.map((j) => j.gpus));
    let found: LowerBound | null = null;
    for (let x = 0; x < arcs.arcs.length && found === null; x++) {
      const [a, m] = arcs.arcs[x] as [number, number];
      // Here each run counts once, whatever its GPUs: the energy per size counts runs × slots.
      let alone = 0;
      for (let i = 0; i < width; i++) if (2 * itemAt(sizes, i, SIZED) > c) alone += itemAt(energy, x * width + i, SIZED);
      if (alone <= m) continue;
      found = {
        value: 2 * smallest,
        reason: {
          code: 'take-turns',
          value: 2 * smallest,
          smallest,
          span: spanOf(model, a, m),
          minutes: alone * model.step,
          spanMinutes: m * model.step,
        },
      };
    }
    if (found === null) return best;
    best = found;
  }
}
