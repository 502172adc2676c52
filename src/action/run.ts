import { readFile } from 'node:fs/promises';
import { pino } from 'pino';
import { redactor } from '../util/redact.js';
import { redactingLogger } from '../github/index.js';
import type { TelemetryProvider } from '../telemetry/index.js';
import type { Logger } from '../github/index.js';
import { targetFromPull, type PullRequestLike } from '../github/index.js';
import { reviewPullRequest, type ReviewOutcome } from '../github/index.js';
import { inThisThread } from '../github/index.js';
import { ACTIONS_BOT } from '../github/index.js';
import { stateKey, stateSecretFromEnv } from '../github/index.js';
import { tokenClient } from '../github/index.js';
import { instanceFromEnv, InstanceNameError } from '../github/index.js';
import type { Instance } from '../github/index.js';
import { GpuJustifyError } from '../domain/errors.js';

/** What the Actions runner tells a step about its run (a subset of the documented variables). */
export interface ActionEnv {
  GITHUB_EVENT_NAME?: string | undefined;
  GITHUB_EVENT_PATH?: string | undefined;
  GITHUB_REPOSITORY?: string | undefined;
  GITHUB_TOKEN?: string | undefined;
  GITHUB_API_URL?: string | undefined;
  /** Signs the state kept in the comment; without it the Action reads none back. */
  GPU_JUSTIFY_STATE_SECRET?: string | undefined;
  /** The `instance` input: this workflow's own comment, suggestions and check (instance.ts). */
  GPU_JUSTIFY_INSTANCE?: string | undefined;
}

/** The Action could not start: a wrong event, no token, an unreadable event file. */
export class ActionSetupError extends GpuJustifyError {
  override readonly kind = 'bad-input';
}

const PR_EVENTS = new Set(['pull_request', 'pull_request_target']);

interface PullRequestEvent {
  pull_request?: PullRequestLike;
  repository?: { name: string; owner: { login: string }; html_url?: string };
}

export function readInstance(env: ActionEnv): Instance {
  try {
    return instanceFromEnv({ GPU_JUSTIFY_INSTANCE: env.GPU_JUSTIFY_INSTANCE });
  } catch (err) {
    if (err instanceof InstanceNameError) throw new ActionSetupError(`instance: ${err.message}`);
    throw err;
  }
}

export function actionLogger(): Logger {
  // Structured lines on stderr; the step's stdout stays for the summary.
  return redactingLogger(pino({ level: process.env['LOG_LEVEL'] ?? 'info', base: null }, pino.destination(2)));
}

/**
 * The GitHub Action: the App's review of one pull request, authenticated with the workflow's
 * token instead of an installation. It posts the same comment and check run.
 */
export async function runAction(env: ActionEnv, telemetry: TelemetryProvider, log: Logger = actionLogger()): Promise<ReviewOutcome> {
  if (!PR_EVENTS.has(env.GITHUB_EVENT_NAME ?? '')) {
    throw new ActionSetupError(
      `gpu-justify reviews pull requests and merge groups; this workflow ran on "${env.GITHUB_EVENT_NAME ?? 'no event'}" (use on: pull_request, merge_group)`,
    );
  }
  const event = await readEvent<PullRequestEvent>(env);
  const pr = event.pull_request;
  const repository = event.repository;
  if (!pr || !repository) throw new ActionSetupError(`${env.GITHUB_EVENT_PATH ?? 'the event'} holds no pull_request and repository`);
  const target = targetFromPull(pr, {
    owner: repository.owner.login,
    repo: repository.name,
    ...(repository.html_url === undefined ? {} : { htmlUrl: repository.html_url }),
  });
  const octokit = tokenClient(env);
  // The workflow token writes as github-actions[bot]; any workflow can too, so the comment's
  // state is trusted only with a signature (a dedicated secret; the token changes every run).
  const instance = readInstance(env);
  const key = stateKey(stateSecretFromEnv({ GPU_JUSTIFY_STATE_SECRET: env.GPU_JUSTIFY_STATE_SECRET }, false));
  // A job of its own: the review runs in this thread, bounded by the deadline and the job's timeout.
  return reviewPullRequest({
    octokit,
    log,
    target,
    telemetry,
    self: () => Promise.resolve(ACTIONS_BOT),
    stateKey: key,
    instance,
    runner: inThisThread,
  });
}

/** The token (registered as a secret) and the event the workflow ran on, or why the step cannot start. */
export async function readEvent<T>(env: ActionEnv): Promise<T> {
  if (!env.GITHUB_TOKEN) throw new ActionSetupError('GITHUB_TOKEN is not set: pass github-token (the default is the workflow token)');
  redactor().add(env.GITHUB_TOKEN);
  if (!env.GITHUB_EVENT_PATH) throw new ActionSetupError('GITHUB_EVENT_PATH is not set: run gpu-justify action inside GitHub Actions');
  try {
    return JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8')) as T;
  } catch (err) {
    throw new ActionSetupError(`cannot read the event at ${env.GITHUB_EVENT_PATH}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
