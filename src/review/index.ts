// The review core's face: what the CLI, the Action and the App call.
export { POLICY_PATHS, type GivenCatalog, type LoadedPolicy, type ReviewInput } from './input.js';
export { runReview } from './run-review.js';
export { readLocalPolicy, readPolicyPath } from './policy-file.js';
