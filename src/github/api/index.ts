// api/'s face, the read port: the client, the change set and tree readers over GitHub's API, the
// policy loader, CODEOWNERS and the API's errors. The rest of github/ imports api/ through this file.
export { ApiChangeSet } from './change-set.js';
export type { GitHubClient, Logger, PullRequestTarget, RepoRef } from './client.js';
export { type CodeOwners, ownersOf, readCodeOwners } from './code-owners.js';
export { describeFailure, GitHubApiError } from './errors.js';
export { GraphqlBlobs } from './graphql-blobs.js';
export { ReadBudget } from './read-budget.js';
export { linksToChanged, type TreeLinks } from './linked-changes.js';
export { loadPolicy, policyCandidates, policyTrees } from './policy-loader.js';
export { type LoadedPull, loadPull, type PullRequestLike, targetFromPull } from './pull-target.js';
export { withRefusedFiles } from './refused-files.js';
export { sideReader } from './side-probes.js';
export { ACTIONS_BOT, appSelfLogin, type SelfLogin } from './self-login.js';
export { tokenClient } from './token-client.js';
export { statusOf } from './tree-reader.js';
export { withUnlistedFiles } from './unlisted-files.js';
