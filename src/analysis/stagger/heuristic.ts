import { addPieces, better, objectiveOf, profileOf, type GridJob, type GridModel, type Placement, type SlotPiece } from './grid.js';
import { itemAt } from '../../util/indexed.js';

const SIZED = 'the-profile-has-one-item-per-slot-of-the-cycle';

// Local search stops after this many passes without needing to converge; each pass is
// O(jobs × slots), so the heuristic stays fast on large catalogs.
const MAX_PASSES = 40;

interface Choice {
  pieces: SlotPiece[];
  /** Usage the job would reach at its busiest slot. */
  top: number;
}

/** Every run at its release: the schedule with no staggering. */
export function naivePlacement(model: GridModel): Placement {
  return model.jobs.map((job) => [{ start: job.lo, len: job.len }]);
}

/**
 * The unsplit start with the lowest busiest slot, then the least overlap, then the earliest:
 * a sliding-window maximum over [lo, hi + len), in O(hi − lo + len). `deque` is scratch space
 * of at least 2 × slots, passed in because local search calls this for every move.
 */
function bestStart(profile: Int32Array, job: GridJob, deque: Int32Array): Choice {
  const n = profile.length;
  // Windows lie within [0, 2n): a compare instead of a modulo.
  const at = (i: number): number => profile[i < n ? i : i - n] as number;
  const from = job.lo;
  const len = job.len;
  let head = 0;
  let tail = 0;
  let running = 0;
  let bestS = from;
  let bestMax = Infinity;
  let bestSum = Infinity;
  for (let i = from; i < job.hi + len; i++) {
    const v = at(i);
    while (tail > head && at(deque[tail - 1] as number) <= v) tail--;
    deque[tail++] = i;
    running += v;
    const s = i - len + 1;
    if (s < from) continue;
    if (s > from) running -= at(s - 1);
    while ((deque[head] as number) < s) head++;
    const max = at(deque[head] as number);
    if (max < bestMax || (max === bestMax && running < bestSum)) {
      bestS = s;
      bestMax = max;
      bestSum = running;
    }
  }
  return { pieces: [{ start: bestS, len }], top: bestMax + job.gpus };
}

/**
 * Pieces on the least-used slots of the window: the lowest busiest slot any split can reach.
 * Among slots tied at the threshold, those nearest the ones already taken go first, so the
 * run breaks into few pieces.
 */
function bestSplit(profile: Int32Array, job: GridJob): Choice {
  const n = profile.length;
  const slots = Array.from({ length: job.winHi - job.winLo }, (_, k) => job.winLo + k);
  const use = (s: number): number => itemAt(profile, s % n, SIZED);
  const threshold = use([...slots].sort((x, y) => use(x) - use(y) || x - y)[job.len - 1] ?? job.winLo);
  const taken = new Set(slots.filter((s) => use(s) < threshold));
  const ties = slots.filter((s) => use(s) === threshold);
  const distance = new Map<number, number>();
  let last = -Infinity;
  for (const s of slots) {
    if (taken.has(s)) last = s;
    distance.set(s, s - last);
  }
  last = Infinity;
  for (const s of [...slots].reverse()) {
    if (taken.has(s)) last = s;
    distance.set(s, Math.min(distance.get(s) ?? Infinity, last - s));
  }
  ties.sort((x, y) => (distance.get(x) ?? 0) - (distance.get(y) ?? 0) || x - y);
  for (const s of ties.slice(0, job.len - taken.size)) taken.add(s);

  const pieces: SlotPiece[] = [];
  for (const s of [...taken].sort((x, y) => x - y)) {
    const piece = pieces[pieces.length - 1];
    if (piece && piece.start + piece.len === s) piece.len++;
    else pieces.push({ start: s, len: 1 });
  }
  return { pieces, top: threshold + job.gpus };
}

function choose(profile: Int32Array, job: GridJob, allowSplit: boolean, deque: Int32Array): Choice {
  const whole = bestStart(profile, job, deque);
  if (!allowSplit || !job.splittable) return whole;
  const split = bestSplit(profile, job);
  // Split only when it lowers the run's busiest slot: a single piece is simpler to operate.
  return split.top < whole.top ? split : whole;
}

/** Big runs first (GPU × duration), each where it raises usage least. */
export function greedyPlacement(model: GridModel, allowSplit: boolean): Placement {
  const order = model.jobs
    .map((job, i) => ({ job, i }))
    .sort((x, y) => y.job.gpus * y.job.len - x.job.gpus * x.job.len || x.job.hi - x.job.lo - (y.job.hi - y.job.lo) || x.i - y.i);
  const profile = new Int32Array(model.slots);
  const deque = new Int32Array(2 * model.slots + 1);
  const placement: Placement = model.jobs.map(() => []);
  for (const { job, i } of order) {
    const choice = choose(profile, job, allowSplit, deque);
    addPieces(profile, choice.pieces, job.gpus);
    placement[i] = choice.pieces;
  }
  return placement;
}

/**
 * Local search: take each run out and put it back where it raises usage least; keep the move
 * when the peak, or the time spent at the peak, goes down.
 */
export function improve(model: GridModel, start: Placement, allowSplit: boolean): Placement {
  const placement = start.map((pieces) => pieces.map((p) => ({ ...p })));
  const profile = profileOf(model, placement);
  let current = objectiveOf(profile);
  const deque = new Int32Array(2 * model.slots + 1);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let moved = false;
    for (const [i, job] of model.jobs.entries()) {
      const old = placement[i] ?? [];
      addPieces(profile, old, -job.gpus);
      const choice = choose(profile, job, allowSplit, deque);
      addPieces(profile, choice.pieces, job.gpus);
      const next = objectiveOf(profile);
      if (better(next, current)) {
        placement[i] = choice.pieces;
        current = next;
        moved = true;
      } else {
        addPieces(profile, choice.pieces, -job.gpus);
        addPieces(profile, old, job.gpus);
      }
    }
    if (!moved) break;
  }
  return placement;
}
