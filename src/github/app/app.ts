import { existsSync, readFileSync } from 'node:fs';
import type { ApplicationFunctionOptions, Probot } from 'probot';
import { redactor } from '../../util/redact.js';
import { telemetryFromEnv, type TelemetryProvider } from '../../telemetry/index.js';
import { CHECK_EVENTS, checkRunIntake, checkSuiteIntake } from './intake/check-events.js';
import { COMMENT_EVENTS, issueCommentIntake } from './intake/issue-comment.js';
import { MERGE_GROUP_EVENTS, mergeGroupIntake } from './intake/merge-group.js';
import { PULL_REQUEST_EVENTS, pullRequestIntake } from './intake/pull-request.js';
import { timedHandler, timeWebhooks } from './intake/timing.js';
import { AppMetrics } from './metrics.js';
import { redactingLogger, withRedactedLog } from '../redacting-log.js';
import { appSelfLogin } from '../api/index.js';
import { stateKey, stateSecretFromEnv } from '../overrides/index.js';
import { instanceFromEnv, namedInstance } from '../publish/index.js';
import { startWork } from './work/runtime.js';
import type { WorkRuntime } from './work/runtime.js';
import { workSettings } from './work/settings.js';
import type { WorkSettings } from './work/settings.js';
import { paceWrites } from './writers/pacing.js';

/** Every event the App subscribes to (app.yml's `default_events` lists their families). */
export const HANDLED_EVENTS = [...PULL_REQUEST_EVENTS, ...COMMENT_EVENTS, ...CHECK_EVENTS, ...MERGE_GROUP_EVENTS] as const;

export interface GpuJustifyAppOptions {
  telemetry?: TelemetryProvider;
  metrics?: AppMetrics;
  stateSecret?: string;
  /** The Redis replicas share the queue through; default `REDIS_URL`; null: this process alone. */
  redisUrl?: string | null;
  /** Worker settings over the environment's (work/settings.ts). */
  work?: Partial<WorkSettings>;
  /** The operator's instance name (instance.ts); default `GPU_JUSTIFY_INSTANCE`; null: none. */
  instance?: string | null;
}

/** Each App instance's queues and workers, by the Probot that loaded it. */
const runtimes = new Map<Probot, WorkRuntime>();

/** The queues and workers of the App a Probot instance loaded: tests wait for them, the server closes them. */
export function workOf(probot: Probot): WorkRuntime | undefined {
  return runtimes.get(probot);
}

/** Stops one App instance's workers: no new job starts, running ones finish. */
export async function closeApp(probot: Probot): Promise<void> {
  const work = runtimes.get(probot);
  runtimes.delete(probot);
  await work?.close();
}

/** Resolves once no App instance of this process has a job waiting or running. */
export async function appsIdle(): Promise<void> {
  await Promise.all([...runtimes.values()].map((work) => work.idle()));
}

/** Stops every App instance of this process. */
export async function closeApps(): Promise<void> {
  await Promise.all([...runtimes.keys()].map(closeApp));
}

/**
 * The Probot app. Webhook handlers only queue (intake/): each delivery is claimed, its requests
 * posted and its job queued, and the webhook is answered at once. Workers run the jobs (work/):
 * one job at a time per pull request, in this process, or through Redis shared by every replica
 * when `REDIS_URL` is set. Telemetry, Redis and the secret that signs the state kept in the
 * App's comment (state-signature.ts) default to the operator's environment, read when the App
 * loads.
 */
export function createGpuJustifyApp(
  options: GpuJustifyAppOptions = {},
): (app: Probot, appOptions?: Partial<ApplicationFunctionOptions>) => void {
  return (app, appOptions) => {
    const metrics = options.metrics ?? new AppMetrics();
    const telemetry = metrics.instrumentTelemetry(options.telemetry ?? telemetryFromEnv());
    // A name that is not valid stops the App at load, before any review is written under it.
    const instance = options.instance === undefined ? instanceFromEnv(process.env) : namedInstance(options.instance);
    const key = stateKey(options.stateSecret ?? stateSecretFromEnv(process.env, true));
    if (!key) app.log.warn('no state secret: overrides cannot be granted or carried between reviews');
    const self = appSelfLogin(async () => metrics.instrument(await app.auth()));
    const settings = { ...workSettings(process.env), ...options.work };
    const redisUrl = options.redisUrl === undefined ? process.env['REDIS_URL']?.trim() || null : options.redisUrl;
    const log = redactingLogger(app.log);
    const work = startWork(
      {
        client: async (installationId, store) =>
          paceWrites(
            metrics.instrument(await app.auth(installationId)),
            { store, installationId, perHour: settings.createsPerHour, spacingMs: settings.writeSpacingMs },
            log,
          ),
        telemetry,
        metrics,
        self,
        stateKey: key,
        instance,
        log,
        rerunWindowMs: settings.rerunWindowMs,
        retryBaseMs: settings.retryBaseMs,
      },
      settings,
      redisUrl,
    );
    runtimes.set(app, work);
    // Probot's server offers extra routes; the bare webhook middleware does not.
    appOptions?.addHandler?.(metrics.handler);
    // Probot reads the key from a file when PRIVATE_KEY_PATH names one; it is a secret all the same.
    const keyPath = process.env['PRIVATE_KEY_PATH'];
    if (keyPath && existsSync(keyPath)) redactor().add(readFileSync(keyPath, 'utf8'));
    const deps = { work, metrics, instance };
    // Each stage of the answer on /metrics (gpu_justify_webhook_stage_seconds).
    timeWebhooks(app, metrics);
    const timed = <C>(handler: (context: C) => Promise<void>) => timedHandler(metrics, handler);
    app.on([...PULL_REQUEST_EVENTS], timed(withRedactedLog(pullRequestIntake(deps))));
    app.on([...COMMENT_EVENTS], timed(withRedactedLog(issueCommentIntake(deps))));
    app.on('check_run.rerequested', timed(withRedactedLog(checkRunIntake(deps))));
    app.on(['check_suite.requested', 'check_suite.rerequested'], timed(withRedactedLog(checkSuiteIntake(deps))));
    app.on([...MERGE_GROUP_EVENTS], timed(withRedactedLog(mergeGroupIntake(deps))));
  };
}

export function gpuJustifyApp(app: Probot, appOptions?: Partial<ApplicationFunctionOptions>): void {
  createGpuJustifyApp()(app, appOptions);
}

/** @alias `probot run` loads the default export (server.ts is how the image runs it); tests import the named one. */
export default gpuJustifyApp;
