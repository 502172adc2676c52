import { createHash } from 'node:crypto';
import type { LoadedPolicy } from '../../../review/index.js';
import { loadPolicy, sideReader } from '../../api/index.js';
import type { GitHubClient, LoadedPull, RepoRef, SelfLogin } from '../../api/index.js';
import type { ReviewedRecord } from './store.js';

/**
 * The policy as it judges, in one string: its values, its errors and the files it could not read
 * (what a grant binds to as well, reviewed-state.ts). Two reviews of one head and base with the
 * same digest were judged alike, whatever the organisation's files did in between.
 */
export function policyDigest(policy: LoadedPolicy): string {
  const judged = JSON.stringify([policy.policy, policy.diagnostics.filter((d) => d.severity === 'error'), policy.unread ?? []]);
  return createHash('sha256').update(judged).digest('hex');
}

interface Reviewed {
  octokit: GitHubClient;
  repo: RepoRef;
  pull: LoadedPull;
  self: SelfLogin;
  checkName: string;
}

/**
 * Whether a push event (`synchronize`) for the current head is answered by a review already done:
 * GitHub sends one per new head, so a second for the same head is a redelivery. It is when that
 * review reached a verdict against the same base, the policy read now digests as the one that
 * judged then (an organisation's or `_extends` file may have changed since), and the head carries
 * a completed check of ours. Anything else reviews again; a re-run (`/gpu-justify`, the check's
 * "Re-run") is not asked here and forces a review past its window. GitHub's redelivery of a push
 * names the head it moved from, reviewed (if at all) before this one; a force-push back to a head
 * already judged names one reviewed since (`left`), and that head's old check, which may carry a
 * grant since lapsed or a grantor since gone, does not answer for it.
 */
export async function pushAlreadyReviewed(r: Reviewed, done: ReviewedRecord | null, left: ReviewedRecord | null = null): Promise<boolean> {
  if (done === null || done.verdict === null || done.policy === undefined) return false;
  if (left !== null && left.at >= done.at) return false;
  const { octokit, repo, pull } = r;
  const policy = await loadPolicy(octokit, repo, sideReader(octokit, repo, pull.target.baseSha));
  if (policyDigest(policy) !== done.policy) return false;
  const author = await r.self();
  const { data } = await octokit.rest.checks.listForRef({
    ...repo,
    ref: pull.target.headSha,
    check_name: r.checkName,
    filter: 'latest',
    per_page: 100,
  });
  // Another App may write a check of the same name: only ours says this head was reviewed.
  return data.check_runs.some((run) => run.status === 'completed' && run.app !== null && `${run.app.slug ?? ''}[bot]` === author);
}
