import { HELD_MOST } from '../analysis/index.js';
import { markdownTable } from 'markdown-table';
import type { ChangeReview, IdlePod } from '../domain/index.js';
import { code, md } from './escape.js';
import { gpusText, pct } from './numbers.js';

/** Rows of the idle-pod table; the rest are counted under it. */
export const MAX_IDLE_POD_ROWS = 10;

/** GPUs a pod holds; MIG instances as their whole-GPU equivalent with the slices named (`0.286 (2× 1g.10gb)`). */
function heldCell(p: IdlePod): string {
  if (p.slices === undefined || p.slices.length === 0) return String(p.gpus);
  return md(`${gpusText(p.gpus)} (${p.slices.map((s) => `${s.count}× ${s.profile}`).join(' + ')})`);
}

/** The idle pods outside the catalog, the most GPUs first, with the count and GPUs of those left out. */
export function idlePodsTable(pods: readonly IdlePod[]): string {
  const shown = pods.slice(0, MAX_IDLE_POD_ROWS);
  const rows = shown.map((p) => [md(`${p.namespace}/${p.pod}`), heldCell(p), pct(p.busyFraction), pct(p.heldFraction)]);
  const table = markdownTable([['Pod', 'GPUs held', 'Busy', 'Held GPUs for (share of the window)'], ...rows]);
  const left = pods.slice(shown.length);
  if (left.length === 0) return table;
  const gpus = left.reduce((s, p) => s + p.gpus, 0);
  return `${table}\n\n…and ${left.length} more idle pods holding ${gpusText(gpus)} GPUs not shown.`;
}

/** Where the numbers came from: the query and window every row rests on, each listed once. */
function evidenceLines(pods: readonly IdlePod[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const e of pods.flatMap((p) => p.evidence)) {
    const key = `${e.source}|${e.ref}|${e.window ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`- ${e.source}${e.window ? ` over ${md(e.window)}` : ''}: ${code(e.ref, 4_000)}`);
  }
  return lines.join('\n');
}

/** The section under the reclaim lever: which pods outside the catalog sit on idle GPUs. */
export function idlePodsBody(review: ChangeReview): string | null {
  const pods = review.idlePods ?? [];
  if (pods.length === 0) return null;
  const rule = `A pod is listed when it held GPUs for more than ${HELD_MOST * 100}% of the window and still held them at its end, busy under the policy's idleBelow; pods a catalog workload's selector names are counted through that workload instead.`;
  return `${idlePodsTable(pods)}\n\n${rule} Their GPUs are among the ${review.change.gpusBefore} the pool has now.\n\nMeasured by:\n${evidenceLines(pods)}`;
}
