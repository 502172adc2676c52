import type { Probot } from 'probot';
import { handlePullRequest, PULL_REQUEST_EVENTS } from './handlers/pull-request.js';

/** The Probot app: one handler per event family, each a thin adapter to the review. */
export function gpuJustifyApp(app: Probot): void {
  app.on([...PULL_REQUEST_EVENTS], handlePullRequest);
}

export default gpuJustifyApp;
