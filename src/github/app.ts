import type { ApplicationFunctionOptions, Probot } from 'probot';
import { CHECK_EVENTS, checkRunHandler, checkSuiteHandler } from './handlers/check-events.js';
import { COMMENT_EVENTS, issueCommentHandler } from './handlers/issue-comment.js';
import { PULL_REQUEST_EVENTS, pullRequestHandler } from './handlers/pull-request.js';
import { telemetryFromEnv, type TelemetryProvider } from '../telemetry/from-env.js';
import { createDeliveryLog, oncePerDelivery } from './deliveries.js';
import { AppMetrics } from './metrics.js';
import { createPrQueue } from './pr-queue.js';
import { appSelfLogin } from './self-login.js';
import { stateKey, stateSecretFromEnv } from './state-signature.js';

/** Every event the App subscribes to (app.yml's `default_events` lists their families). */
export const HANDLED_EVENTS = [...PULL_REQUEST_EVENTS, ...COMMENT_EVENTS, ...CHECK_EVENTS] as const;

/**
 * The Probot app: one thin handler per event family. The per-PR queue lives here, so each App
 * instance (each test server, each process) has its own and nothing is shared between them.
 * Telemetry defaults to the operator's environment, read when the App loads, and so does the
 * secret that signs the state kept in the App's comment (see state-signature.ts).
 */
export function createGpuJustifyApp(
  options: { telemetry?: TelemetryProvider; metrics?: AppMetrics; stateSecret?: string } = {},
): (app: Probot, appOptions?: Partial<ApplicationFunctionOptions>) => void {
  return (app, appOptions) => {
    const metrics = options.metrics ?? new AppMetrics();
    const telemetry = metrics.instrumentTelemetry(options.telemetry ?? telemetryFromEnv());
    const key = stateKey(options.stateSecret ?? stateSecretFromEnv(process.env, true));
    if (!key) app.log.warn('no state secret: overrides cannot be granted or carried between reviews');
    const self = appSelfLogin(async () => metrics.instrument(await app.auth()));
    const deps = { queue: createPrQueue(), telemetry, metrics, self, stateKey: key, commands: createDeliveryLog() };
    // Probot's server offers extra routes; the bare webhook middleware does not.
    appOptions?.addHandler?.(metrics.handler);
    const deliveries = createDeliveryLog();
    app.on([...PULL_REQUEST_EVENTS], oncePerDelivery(deliveries, pullRequestHandler(deps)));
    app.on([...COMMENT_EVENTS], oncePerDelivery(deliveries, issueCommentHandler(deps)));
    app.on('check_run.rerequested', oncePerDelivery(deliveries, checkRunHandler(deps)));
    app.on(['check_suite.requested', 'check_suite.rerequested'], oncePerDelivery(deliveries, checkSuiteHandler(deps)));
  };
}

export function gpuJustifyApp(app: Probot, appOptions?: Partial<ApplicationFunctionOptions>): void {
  createGpuJustifyApp()(app, appOptions);
}

export default gpuJustifyApp;
