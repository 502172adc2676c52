import type { CapacityDecl, CohortMember, CohortQueue } from '../domain/index.js';

function cohortQueue(d: CapacityDecl): CohortQueue | null {
  if (d.kind !== 'kueue-cluster-queue' || d.cohort === undefined) return null;
  return {
    queue: d.name,
    cohort: d.cohort,
    nominal: d.gpus,
    ...(d.lendingLimit === undefined ? {} : { lendingLimit: d.lendingLimit }),
    ...(d.borrowingLimit === undefined ? {} : { borrowingLimit: d.borrowingLimit }),
    at: `${d.file}:${d.line}`,
  };
}

/**
 * The cohort queues the PR's files declare: as the base branch has them where they exist there,
 * so a PR cannot lower a lender's lendingLimit (or its queue's borrowingLimit) to make its own
 * request look needed; queues only the head declares as the head has them.
 */
export function cohortQueuesOf(declarations: { base: readonly CapacityDecl[]; head: readonly CapacityDecl[] }): CohortQueue[] {
  const out = new Map<string, CohortQueue>();
  for (const d of declarations.base) {
    const q = cohortQueue(d);
    if (q !== null && !out.has(q.queue)) out.set(q.queue, q);
  }
  for (const d of declarations.head) {
    const q = cohortQueue(d);
    if (q !== null && !out.has(q.queue)) out.set(q.queue, q);
  }
  return [...out.values()].sort((a, b) => a.queue.localeCompare(b.queue));
}

/**
 * Every queue the changed files declare in a cohort at head, with the base's declaration of the
 * same queue (ClusterQueues are cluster-wide: by name, wherever the file): a grant binds to what
 * the pull request loosens of each (a cohort joined, a limit raised or dropped), since any of them
 * lets a changed queue of the same cohort take more than the approver saw, its count unchanged.
 */
export function cohortMembersAtHead(declarations: { base: readonly CapacityDecl[]; head: readonly CapacityDecl[] }): CohortMember[] {
  const queues = (decls: readonly CapacityDecl[]) => decls.filter((d) => d.kind === 'kueue-cluster-queue');
  const base = new Map(queues(declarations.base).map((d) => [d.name, d]));
  return queues(declarations.head)
    .filter((d) => d.cohort !== undefined)
    .map((head) => {
      const before = base.get(head.name);
      return before === undefined ? { head } : { head, base: before };
    });
}
