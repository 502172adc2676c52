// github/'s face for the other surfaces: the CLI's `review --pr` reads a pull request through the
// API's change set, and the Action reviews and publishes one through reviewPullRequest. Files outside
// github/ import it through this file (.dependency-cruiser.cjs).
export {
  ACTIONS_BOT,
  ApiChangeSet,
  describeFailure,
  GitHubApiError,
  linksToChanged,
  loadPolicy,
  loadPull,
  type Logger,
  type PullRequestLike,
  targetFromPull,
  tokenClient,
  type TreeLinks,
  withUnlistedFiles,
} from './api/index.js';
export { stateKey, stateSecretFromEnv } from './overrides/index.js';
export { type Instance, instanceFromEnv, InstanceNameError } from './publish/index.js';
export { redactingLogger } from './redacting-log.js';
export { type ReviewOutcome, reviewPullRequest } from './review-pull-request.js';
export { inThisThread } from './review-runner.js';
export { reviewMergeGroup } from './review-merge-group.js';
