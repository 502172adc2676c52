/**
 * Where a review is read: on the pull request (the comment and check the App or the Action
 * posts, which answer `/gpu-justify` commands), or in the markdown `gpu-justify review` prints.
 * Each names only what its reader can use: a PR never a CLI flag, the CLI its flags.
 */
export type Surface = 'pull-request' | 'cli';
