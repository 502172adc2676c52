import type { Context } from 'probot';
import type { IntakeDeps } from './deps.js';
import { submit } from './submit.js';

export const MERGE_GROUP_EVENTS = ['merge_group.checks_requested'] as const;

type MergeGroupContext = Context<'merge_group.checks_requested'>;

/**
 * A merge queue asks for the required checks on its group's head commit: without our check there
 * the queue cannot merge. One job per group; the worker decides whether the pull request's
 * verdict carries (work/merge-group-job.ts).
 */
export function mergeGroupIntake(deps: IntakeDeps): (context: MergeGroupContext) => Promise<void> {
  return async (context) => {
    const { merge_group: group, repository, installation } = context.payload;
    if (installation === undefined || repository === undefined) return;
    const data = {
      kind: 'merge-group' as const,
      installationId: installation.id,
      owner: repository.owner.login,
      repo: repository.name,
      delivery: context.id,
      headSha: group.head_sha,
      baseSha: group.base_sha,
      baseRef: group.base_ref,
      headRef: group.head_ref,
    };
    await submit(deps.work, deps.metrics, context.id, [{ data, requests: [] }], context.log);
  };
}
