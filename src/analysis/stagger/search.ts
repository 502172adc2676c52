import type { GridModel } from './grid.js';

/** Slots scanned that count as one node, so the budget also bounds the work on fine grids. */
const SLOTS_PER_NODE = 256;

export interface SearchResult {
  /** Unsplit start slots with a peak below the incumbent, or null when none was found. */
  starts: number[] | null;
  peak: number;
  /** The search finished: no unsplit schedule on the grid has a lower peak than `peak`. */
  proved: boolean;
  nodes: number;
}

/**
 * Depth-first branch-and-bound over unsplit start slots, looking for a peak below
 * `incumbent`. A start is allowed only if the job's busiest slot stays under the incumbent;
 * a node where some open job has no allowed start is cut; otherwise the job with the fewest
 * allowed starts is branched on (fail first), least-loaded start first. Identical jobs start
 * in a fixed order (a job waits for its `prev` and starts no earlier than it), which removes
 * permutations of equal runs. Stops on reaching `lowerBound` or the budget.
 */
export function searchStarts(model: GridModel, incumbent: number, lowerBound: number, budget: number): SearchResult {
  const jobs = model.jobs;
  const n = model.slots;
  // Usage per slot, laid out twice so a window [s, s + len) never needs a modulo:
  // starts are below 2n and every window ends by the deadline, also below 2n.
  const usage = new Int32Array(2 * n);
  const starts = new Array<number>(jobs.length).fill(-1);
  let best = incumbent;
  let bestStarts: number[] | null = null;
  let used = 0;
  let nodes = 0;
  let aborted = false;

  const place = (start: number, len: number, gpus: number): void => {
    for (let k = start; k < start + len; k++) {
      const i = k % n;
      usage[i] = (usage[i] ?? 0) + gpus;
      usage[i + n] = (usage[i + n] ?? 0) + gpus;
    }
  };

  /** Allowed starts in [from, to] for a window of `len` slots under `limit`, counting no further than `stopAt`. */
  const countAllowed = (from: number, to: number, len: number, limit: number, stopAt: number): number => {
    let lastBad = from - 1;
    let count = 0;
    for (let i = from; i < to + len; i++) {
      if ((usage[i] ?? 0) >= limit) lastBad = i;
      const s = i - len + 1;
      if (s >= from && lastBad < s && ++count >= stopAt) break;
    }
    used += (to + len - from) / SLOTS_PER_NODE;
    return count;
  };

  /** Busiest slot of each allowed start's window, by a sliding-window maximum. */
  const allowedStarts = (from: number, to: number, len: number, limit: number): { start: number; top: number }[] => {
    const out: { start: number; top: number }[] = [];
    const deque: number[] = [];
    let head = 0;
    for (let i = from; i < to + len; i++) {
      const v = usage[i] ?? 0;
      while (deque.length > head && (usage[deque[deque.length - 1] ?? 0] ?? 0) <= v) deque.pop();
      deque.push(i);
      const s = i - len + 1;
      if (s < from) continue;
      while ((deque[head] ?? 0) < s) head++;
      const top = usage[deque[head] ?? 0] ?? 0;
      if (top < limit) out.push({ start: s, top });
    }
    used += (to + len - from) / SLOTS_PER_NODE;
    return out.sort((a, b) => a.top - b.top || a.start - b.start);
  };

  const dfs = (placed: number, peak: number): void => {
    nodes++;
    used++;
    if (used > budget) {
      aborted = true;
      return;
    }
    if (placed === jobs.length) {
      best = peak;
      bestStarts = [...starts];
      return;
    }
    let chosen = -1;
    let fewest = Infinity;
    for (let j = 0; j < jobs.length; j++) {
      const job = jobs[j];
      if (job === undefined || (starts[j] ?? -1) >= 0) continue;
      const from = job.prev >= 0 ? Math.max(job.lo, starts[job.prev] ?? -1) : job.lo;
      if (from < job.lo) continue; // waits for its identical predecessor
      const count = countAllowed(from, job.hi, job.len, best - job.gpus, fewest);
      if (count === 0) return;
      if (count < fewest) {
        fewest = count;
        chosen = j;
      }
    }
    const job = jobs[chosen];
    if (job === undefined) return;
    const from = job.prev >= 0 ? Math.max(job.lo, starts[job.prev] ?? -1) : job.lo;
    for (const { start, top } of allowedStarts(from, job.hi, job.len, best - job.gpus)) {
      if (top + job.gpus >= best) continue;
      starts[chosen] = start;
      place(start, job.len, job.gpus);
      dfs(placed + 1, Math.max(peak, top + job.gpus));
      place(start, job.len, -job.gpus);
      starts[chosen] = -1;
      if (aborted || best <= lowerBound) return;
    }
  };

  if (incumbent > lowerBound && budget > 0) dfs(0, 0);
  else aborted = budget <= 0 && incumbent > lowerBound;
  return { starts: bestStarts, peak: best, proved: !aborted, nodes };
}
