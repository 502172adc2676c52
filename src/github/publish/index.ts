// publish/'s face: what the review writes (the check run, our comment, suggestions), through a
// ReviewPublisher, within a write budget, under an instance's name. The rest of github/ imports
// publish/ through this file.
export { adaptCheckOutput } from './check-output.js';
export { CheckRun, concludeLeftInProgress, inProgressAfterSeconds, type RunIdentity } from './check-run.js';
export { findMarkedComment } from './comment-poster.js';
export { githubPublisher } from './github-publisher.js';
export { DEFAULT_INSTANCE, type Instance, instanceFromEnv, InstanceNameError, namedInstance } from './instance.js';
export { type Posting, postOverridden, postPlain, type Rendered } from './post-review.js';
export type { ReviewCheck, ReviewPublisher } from './publisher.js';
export { budgetWrites, rateLimitWait, WriteBudgetExceededError, writeBudgetSeconds } from './write-budget.js';
