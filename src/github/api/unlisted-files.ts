import { uniqueMissing } from '../../analysis/index.js';
import { diagnostic } from '../../domain/index.js';
import type { ReviewResult } from '../../domain/index.js';
import type { UnlistedFiles } from './tree-diff.js';

/** Where the diagnostic points: no file of the PR, the PR itself. */
const PR_FILES = 'pull request files';

/**
 * The review of a pull request whose changed files could not all be known: any of those unseen
 * could add GPUs, so there is no confident verdict, never "no GPU capacity change".
 */
export function withUnlistedFiles(result: ReviewResult, unlisted: UnlistedFiles | null): ReviewResult {
  if (unlisted === null) return result;
  const count = unlisted.total === null ? `at least ${unlisted.listed.toLocaleString('en-US')}` : unlisted.total.toLocaleString('en-US');
  const message =
    `GitHub listed ${unlisted.listed.toLocaleString('en-US')} of the ${count} files this pull request changes, and ${unlisted.reason}: ` +
    `the files not listed were not checked for GPU capacity`;
  const d = diagnostic(PR_FILES, null, 'error', message);
  return {
    ...result,
    verdict: 'insufficient-evidence',
    gpusNeeded: null,
    diagnostics: [...result.diagnostics, d],
    missingEvidence: uniqueMissing([
      { what: 'the full list of changed files', how: 'split the pull request so that it changes fewer than 3,000 files' },
      ...result.missingEvidence,
    ]),
  };
}
