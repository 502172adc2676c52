import type { CheckOutput } from '../report/index.js';
import type { TelemetryProvider } from '../telemetry/index.js';
import type { Logger } from '../github/index.js';
import { ACTIONS_BOT, inThisThread, reviewMergeGroup, stateKey, stateSecretFromEnv, tokenClient } from '../github/index.js';
import { actionLogger, ActionSetupError, readEvent, readInstance } from './run.js';
import type { ActionEnv } from './run.js';

interface MergeGroupEvent {
  merge_group?: { head_sha?: string; head_ref?: string; base_sha?: string; base_ref?: string };
  repository?: { name: string; owner: { login: string } };
}

/**
 * The Action on a `merge_group` event (a merge queue asking for the required checks on its
 * group's head): concludes our check on that head as the App does (review-merge-group.ts): the
 * pull request's verdict carries where the group is exactly what our signed comment shows, and
 * the group is reviewed whole anywhere else. The workflow's token writes the check, so our own
 * runs on the pull request are those of `github-actions`.
 */
export async function runMergeGroupAction(
  env: ActionEnv,
  telemetry: TelemetryProvider,
  log: Logger = actionLogger(),
): Promise<CheckOutput['conclusion']> {
  const event = await readEvent<MergeGroupEvent>(env);
  const group = event.merge_group;
  const repository = event.repository;
  const { head_sha: headSha, head_ref: headRef, base_sha: baseSha, base_ref: baseRef } = group ?? {};
  if (!repository || !headSha || !headRef || !baseSha || !baseRef)
    throw new ActionSetupError(`${env.GITHUB_EVENT_PATH ?? 'the event'} holds no merge_group with its head and base, and repository`);
  return reviewMergeGroup({
    octokit: tokenClient(env),
    log,
    repo: { owner: repository.owner.login, repo: repository.name },
    group: { headSha, headRef, baseSha, baseRef },
    telemetry,
    // Without the dedicated secret no verdict on the pull request is trusted: the group is judged whole.
    stateKey: stateKey(stateSecretFromEnv({ GPU_JUSTIFY_STATE_SECRET: env.GPU_JUSTIFY_STATE_SECRET }, false)),
    instance: readInstance(env),
    self: () => Promise.resolve(ACTIONS_BOT),
    checkRun: null,
    runner: inThisThread,
  });
}
