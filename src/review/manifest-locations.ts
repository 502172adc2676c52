import { movedRuns } from '../domain/index.js';
import type { ChangeReview, DeclaredWorkload, PlannedManifest, ReviewResult, TreeReader } from '../domain/index.js';
import { declaredInTree } from '../workloads/index.js';

/**
 * Ties each workload a stagger plan moves to the manifest that declares it, so "Do this" names the
 * line to edit (a CronJob's `schedule:`) and says what a Job, which has no schedule, needs instead.
 * Read from the head, where the edit lands; only when some plan moves a run. A name two manifests
 * declare is left untied rather than guessed. The manifests only point at lines: a read that fails
 * leaves the plan as it was, never the review.
 */
export async function withManifestLocations(
  result: ReviewResult,
  from: { head: TreeReader; paths: readonly string[]; read: readonly DeclaredWorkload[] | null },
): Promise<ReviewResult> {
  const moved = new Set(result.reviews.flatMap((r) => (r.plan ? movedRuns(r.plan).map((run) => run.workload) : [])));
  if (moved.size === 0) return result;
  let declared = from.read;
  try {
    declared ??= await declaredInTree(from.head, from.paths);
  } catch {
    return result;
  }
  const byName = new Map<string, PlannedManifest[]>();
  for (const d of declared) {
    if (!moved.has(d.name)) continue;
    const found = { workload: d.name, kind: d.kind, source: d.source, schedule: d.schedule?.source ?? null };
    byName.set(d.name, [...(byName.get(d.name) ?? []), found]);
  }
  const tie = (review: ChangeReview): ChangeReview => {
    if (!review.plan) return review;
    const names = new Set(movedRuns(review.plan).map((run) => run.workload));
    const manifests = [...names].flatMap((name) => {
      const found = byName.get(name) ?? [];
      return found.length === 1 ? found : [];
    });
    return manifests.length === 0 ? review : { ...review, plan: { ...review.plan, manifests } };
  };
  return { ...result, reviews: result.reviews.map(tie) };
}
