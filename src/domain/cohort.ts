/**
 * A Kueue ClusterQueue of a cohort as the pull request's files declare it: the base branch's
 * declaration where the queue exists there (the PR cannot loosen the limits it is judged by),
 * else the head's. GPUs summed over the counted flavors; a limit is absent when unset.
 */
export interface CohortQueue {
  queue: string;
  cohort: string;
  nominal: number;
  /** GPUs the queue lends its cohort at most; absent: all of its unused quota. */
  lendingLimit?: number;
  /** GPUs the queue may borrow from its cohort at most; absent: no limit. */
  borrowingLimit?: number;
  /** `file:line` of the declaration. */
  at: string;
}
