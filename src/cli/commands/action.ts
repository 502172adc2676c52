import { runAction, type ActionEnv } from '../../github/action.js';
import { telemetryFromEnv } from '../../telemetry/from-env.js';
import { parseFlags } from '../args.js';
import type { Output } from '../output.js';

export const ACTION_HELP = `Usage: gpu-justify action

Runs inside GitHub Actions on a pull_request event (action.yml calls it): reviews the pull request
with the workflow's GITHUB_TOKEN, posts the comment and the gpu-justify check run, and exits 1 when
the check fails (enforce mode), so the job fails with it. Telemetry comes from PROMETHEUS_URL and
the other variables of the operator, as for the App. Takes no options.

Exit codes: 0 when the review ran and the check did not fail, 1 when the check failed or the
review could not run, 2 when the step is set up wrongly (not a pull_request event, no token).`;

export async function actionCommand(argv: string[], out: Output): Promise<number> {
  parseFlags(argv, {});
  const outcome = await runAction(process.env as ActionEnv, telemetryFromEnv());
  if (outcome.result === null) {
    out.stderr('gpu-justify could not run; the check run says why.');
    return 1;
  }
  out.stdout(`gpu-justify: ${outcome.result.verdict}, check ${outcome.override ? 'overridden' : outcome.conclusion}.`);
  return outcome.conclusion === 'failure' && outcome.override === null ? 1 : 0;
}
