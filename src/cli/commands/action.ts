import { runAction, type ActionEnv } from '../../action/run.js';
import { runMergeGroupAction } from '../../action/merge-group.js';
import { describeFailure, GitHubApiError } from '../../github/index.js';
import { telemetryFromEnv } from '../../telemetry/index.js';
import { parseFlags } from '../args.js';
import type { Output } from '../output.js';

export const ACTION_HELP = `Usage: gpu-justify action

Runs inside GitHub Actions on a pull_request event (action.yml calls it): reviews the pull request
with the workflow's GITHUB_TOKEN, posts the comment and the gpu-justify check run, and exits 1 when
the check fails (enforce mode), so the job fails with it. On a merge_group event it concludes the
check on the group's head as the App does: the pull request's verdict when the group is what its
review showed, else a review of the whole group. Telemetry comes from PROMETHEUS_URL and
the other variables of the operator, as for the App. Takes no options.

Exit codes: 0 when the review ran and the check did not fail, 1 when the check failed or the
review could not run, 2 when the step is set up wrongly (not a pull_request or merge_group event,
no token).`;

export async function actionCommand(argv: string[], out: Output): Promise<number> {
  parseFlags(argv, {});
  if (process.env['GITHUB_EVENT_NAME'] === 'merge_group') return mergeGroup(out);
  let outcome: Awaited<ReturnType<typeof runAction>>;
  try {
    outcome = await runAction(process.env as ActionEnv, telemetryFromEnv());
  } catch (err) {
    // GitHub refused or could not be reached: one line naming the cause, no stack (the check, if it
    // could be written at all, says the same).
    if (GitHubApiError.from(err) === null) throw err;
    out.stderr(`gpu-justify: the review could not run: ${describeFailure(err)}`);
    return 1;
  }
  if (outcome.result === null) {
    out.stderr('gpu-justify could not run; the check run says why.');
    return 1;
  }
  out.stdout(`gpu-justify: ${outcome.result.verdict}, check ${outcome.override ? 'overridden' : outcome.conclusion}.`);
  return outcome.conclusion === 'failure' && outcome.override === null ? 1 : 0;
}

async function mergeGroup(out: Output): Promise<number> {
  let conclusion: Awaited<ReturnType<typeof runMergeGroupAction>>;
  try {
    conclusion = await runMergeGroupAction(process.env as ActionEnv, telemetryFromEnv());
  } catch (err) {
    // The check on the group's head was concluded failed where GitHub let it be written.
    if (GitHubApiError.from(err) === null) throw err;
    out.stderr(`gpu-justify: the merge group could not be reviewed: ${describeFailure(err)}`);
    return 1;
  }
  out.stdout(`gpu-justify: merge group check ${conclusion}.`);
  return conclusion === 'failure' ? 1 : 0;
}
