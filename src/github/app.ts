import type { Probot } from 'probot';
import { CHECK_EVENTS, checkRunHandler, checkSuiteHandler } from './handlers/check-events.js';
import { COMMENT_EVENTS, issueCommentHandler } from './handlers/issue-comment.js';
import { PULL_REQUEST_EVENTS, pullRequestHandler } from './handlers/pull-request.js';
import { telemetryFromEnv, type TelemetryProvider } from '../telemetry/from-env.js';
import { createPrQueue } from './pr-queue.js';

/** Every event the App subscribes to (app.yml's `default_events` lists their families). */
export const HANDLED_EVENTS = [...PULL_REQUEST_EVENTS, ...COMMENT_EVENTS, ...CHECK_EVENTS] as const;

/**
 * The Probot app: one thin handler per event family. The per-PR queue lives here, so each App
 * instance (each test server, each process) has its own and nothing is shared between them.
 * Telemetry defaults to the operator's environment, read when the App loads.
 */
export function createGpuJustifyApp(options: { telemetry?: TelemetryProvider } = {}): (app: Probot) => void {
  return (app) => {
    const deps = { queue: createPrQueue(), telemetry: options.telemetry ?? telemetryFromEnv() };
    app.on([...PULL_REQUEST_EVENTS], pullRequestHandler(deps));
    app.on([...COMMENT_EVENTS], issueCommentHandler(deps));
    app.on('check_run.rerequested', checkRunHandler(deps));
    app.on(['check_suite.requested', 'check_suite.rerequested'], checkSuiteHandler(deps));
  };
}

export function gpuJustifyApp(app: Probot): void {
  createGpuJustifyApp()(app);
}

export default gpuJustifyApp;
