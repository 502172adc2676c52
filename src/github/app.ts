import { existsSync, readFileSync } from 'node:fs';
import type { ApplicationFunctionOptions, Probot } from 'probot';
import { redactor } from '../domain/redact.js';
import { withRedactedLog } from './redacting-log.js';
import { CHECK_EVENTS, checkRunHandler, checkSuiteHandler } from './handlers/check-events.js';
import { COMMENT_EVENTS, issueCommentHandler } from './handlers/issue-comment.js';
import { PULL_REQUEST_EVENTS, pullRequestHandler } from './handlers/pull-request.js';
import { telemetryFromEnv, type TelemetryProvider } from '../telemetry/from-env.js';
import type { Coordination } from './coordination.js';
import { coordinationFromEnv } from './coordination-from-env.js';
import { oncePerDelivery } from './deliveries.js';
import { AppMetrics } from './metrics.js';
import { createPrQueue } from './pr-queue.js';
import { appSelfLogin } from './self-login.js';
import { stateKey, stateSecretFromEnv } from './state-signature.js';

/** Every event the App subscribes to (app.yml's `default_events` lists their families). */
export const HANDLED_EVENTS = [...PULL_REQUEST_EVENTS, ...COMMENT_EVENTS, ...CHECK_EVENTS] as const;

/**
 * The Probot app: one thin handler per event family. The per-PR queue lives here, so each App
 * instance (each test server, each process) has its own; replicas share only what the
 * coordination shares (Redis, with `REDIS_URL`). Telemetry and coordination default to the
 * operator's environment, read when the App loads, and so does the secret that signs the state
 * kept in the App's comment (see state-signature.ts).
 */
export function createGpuJustifyApp(
  options: { telemetry?: TelemetryProvider; metrics?: AppMetrics; coordination?: Coordination; stateSecret?: string } = {},
): (app: Probot, appOptions?: Partial<ApplicationFunctionOptions>) => void {
  return (app, appOptions) => {
    const metrics = options.metrics ?? new AppMetrics();
    const telemetry = metrics.instrumentTelemetry(options.telemetry ?? telemetryFromEnv());
    const coordination = options.coordination ?? coordinationFromEnv(process.env, app.log, metrics);
    const key = stateKey(options.stateSecret ?? stateSecretFromEnv(process.env, true));
    if (!key) app.log.warn('no state secret: overrides cannot be granted or carried between reviews');
    const self = appSelfLogin(async () => metrics.instrument(await app.auth()));
    const deps = { queue: createPrQueue(coordination), telemetry, metrics, self, stateKey: key, commands: coordination };
    // Probot's server offers extra routes; the bare webhook middleware does not.
    appOptions?.addHandler?.(metrics.handler);
    const deliveries = coordination;
    // Probot reads the key from a file when PRIVATE_KEY_PATH names one; it is a secret all the same.
    const keyPath = process.env['PRIVATE_KEY_PATH'];
    if (keyPath && existsSync(keyPath)) redactor().add(readFileSync(keyPath, 'utf8'));
    app.on([...PULL_REQUEST_EVENTS], withRedactedLog(oncePerDelivery(deliveries, pullRequestHandler(deps))));
    app.on([...COMMENT_EVENTS], withRedactedLog(oncePerDelivery(deliveries, issueCommentHandler(deps))));
    app.on('check_run.rerequested', withRedactedLog(oncePerDelivery(deliveries, checkRunHandler(deps))));
    app.on(['check_suite.requested', 'check_suite.rerequested'], withRedactedLog(oncePerDelivery(deliveries, checkSuiteHandler(deps))));
  };
}

export function gpuJustifyApp(app: Probot, appOptions?: Partial<ApplicationFunctionOptions>): void {
  createGpuJustifyApp()(app, appOptions);
}

/** @alias `probot run` loads the default export (server.ts is how the image runs it); tests import the named one. */
export default gpuJustifyApp;
