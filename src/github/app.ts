import type { ApplicationFunctionOptions, Probot } from 'probot';
import { CHECK_EVENTS, checkRunHandler, checkSuiteHandler } from './handlers/check-events.js';
import { COMMENT_EVENTS, issueCommentHandler } from './handlers/issue-comment.js';
import { PULL_REQUEST_EVENTS, pullRequestHandler } from './handlers/pull-request.js';
import { telemetryFromEnv, type TelemetryProvider } from '../telemetry/from-env.js';
import { createDeliveryLog, oncePerDelivery } from './deliveries.js';
import { AppMetrics } from './metrics.js';
import { createPrQueue } from './pr-queue.js';

/** Every event the App subscribes to (app.yml's `default_events` lists their families). */
export const HANDLED_EVENTS = [...PULL_REQUEST_EVENTS, ...COMMENT_EVENTS, ...CHECK_EVENTS] as const;

/**
 * The Probot app: one thin handler per event family. The per-PR queue lives here, so each App
 * instance (each test server, each process) has its own and nothing is shared between them.
 * Telemetry defaults to the operator's environment, read when the App loads.
 */
export function createGpuJustifyApp(
  options: { telemetry?: TelemetryProvider; metrics?: AppMetrics } = {},
): (app: Probot, appOptions?: Partial<ApplicationFunctionOptions>) => void {
  return (app, appOptions) => {
    const metrics = options.metrics ?? new AppMetrics();
    const telemetry = metrics.instrumentTelemetry(options.telemetry ?? telemetryFromEnv());
    const deps = { queue: createPrQueue(), telemetry, metrics };
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

/** @alias `probot run` loads the default export; tests and benches import the named one. */
export default gpuJustifyApp;
