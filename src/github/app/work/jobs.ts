import { z } from 'zod';

/**
 * What the App queues. A `pr` job asks "bring this pull request up to date": review its current
 * head if nobody has, and answer the commands waiting in its mailbox (requests.ts). It names the
 * pull request, not a commit, so a newer push folds into a job already waiting instead of adding
 * one. A `commit` job finds the pull requests of a commit whose check event did not list them
 * (forks), then queues a `pr` job for each.
 *
 * Job data is stored in Redis in clear text: it holds names and numbers GitHub already shows,
 * never a token, and nothing in it is trusted beyond "look at this pull request" (see
 * SECURITY.md).
 */

const Repo = {
  installationId: z.number().int().positive(),
  owner: z.string().min(1),
  repo: z.string().min(1),
  /** The webhook delivery that queued it. */
  delivery: z.string().min(1),
};

export const PrJobData = z.object({
  kind: z.literal('pr'),
  ...Repo,
  number: z.number().int().positive(),
  /** The head the event named, if it named one (a comment does not): where a failed job looks for its checks. */
  headSha: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
});
export type PrJobData = z.infer<typeof PrJobData>;

export const CommitJobData = z.object({
  kind: z.literal('commit'),
  ...Repo,
  headSha: z.string().regex(/^[0-9a-f]{40}$/),
  /** "Re-run all checks": each pull request found gets a re-run request, not only a job. */
  rerun: z.boolean(),
});
export type CommitJobData = z.infer<typeof CommitJobData>;

/**
 * A merge queue's group (`merge_group.checks_requested`): the check on its head commit, carried
 * from the pull request's review where the group changes the same capacity, reviewed otherwise.
 */
export const MergeGroupJobData = z.object({
  kind: z.literal('merge-group'),
  ...Repo,
  headSha: z.string().regex(/^[0-9a-f]{40}$/),
  baseSha: z.string().regex(/^[0-9a-f]{40}$/),
  /** `refs/heads/main`: the branch whose policy judges the group. */
  baseRef: z.string().min(1),
  /** `refs/heads/gh-readonly-queue/main/pr-<N>-<sha>`: names the group's last pull request. */
  headRef: z.string().min(1),
});
export type MergeGroupJobData = z.infer<typeof MergeGroupJobData>;

export const JobData = z.discriminatedUnion('kind', [PrJobData, CommitJobData, MergeGroupJobData]);
export type JobData = z.infer<typeof JobData>;

/** The key of a pull request: its jobs run one at a time, its mailbox is read in order. */
export function prKey(owner: string, repo: string, number: number): string {
  return `${owner.toLowerCase()}/${repo.toLowerCase()}#${number}`;
}

/**
 * A job's id, from the pull request, the head and the delivery: one delivery queued twice (a
 * redelivery racing its original on another replica) is one job, while two deliveries for one
 * head are two triggers, folded by the pull request's key rather than dropped, so that a command
 * posted while its pull request's job runs still gets a job after it. BullMQ forbids `:` in ids;
 * delivery ids are GUIDs and GitHub names hold none.
 */
export function jobId(data: JobData): string {
  const repo = `${data.owner}/${data.repo}`.toLowerCase();
  const at =
    data.kind === 'pr'
      ? `pr|${repo}#${data.number}@${data.headSha ?? 'head'}`
      : data.kind === 'merge-group'
        ? `group|${repo}@${data.headSha}`
        : `commit|${repo}@${data.headSha}`;
  return `${at}|${data.delivery.replaceAll(':', '-')}`;
}

/**
 * The serialisation key of a job: pull request jobs share one per pull request, a merge group's
 * one per group head (a second request for it folds in); a commit job runs alone.
 */
export function jobKey(data: JobData): string | null {
  if (data.kind === 'pr') return prKey(data.owner, data.repo, data.number);
  if (data.kind === 'merge-group') return `${data.owner}/${data.repo}@${data.headSha}`.toLowerCase();
  return null;
}
