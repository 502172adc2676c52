import { uniqueMissing } from '../../analysis/index.js';
import { MAX_FILE_CHARS, diagnostic } from '../../domain/index.js';
import type { ReviewResult } from '../../domain/index.js';

/**
 * A file not downloaded whole for its size: a changed file whose head side could hold capacity,
 * or an input the review reads as it is (the catalog, a load-test file, the policy, a kustomize
 * base), refused by GitHub's size before any download.
 */
export interface RefusedFile {
  path: string;
  /** Its size in bytes, as GitHub gives it. */
  bytes: number;
  /** False for an input read as it is: its message then does not speak of GPU capacity. */
  capacity?: boolean;
}

/**
 * The review with the changed files it did not read for their size, each of which could hold
 * capacity (a parser's cheap check passed): reported as detection reports a file too large to
 * parse (its size and the limit), and, as for any capacity file that could not be read, no
 * confident verdict. Sizes are GitHub's, in bytes, and the message says so: detection's limit
 * counts characters, and a file has at least as many bytes as characters.
 */
export function withRefusedFiles(result: ReviewResult, refused: readonly RefusedFile[]): ReviewResult {
  if (refused.length === 0) return result;
  const diagnostics = refused.map(({ path, bytes, capacity }) =>
    diagnostic(path, null, 'error', refusalMessage(bytes, capacity !== false)),
  );
  return {
    ...result,
    verdict: 'insufficient-evidence',
    gpusNeeded: null,
    diagnostics: [...result.diagnostics, ...diagnostics],
    missingEvidence: uniqueMissing([
      ...diagnostics.map((d) => ({ what: `a readable ${d.file}`, how: `fix ${d.file}: ${d.message}` })),
      ...result.missingEvidence,
    ]),
  };
}

/** Why a file of `bytes` bytes was not read. */
export function refusalMessage(bytes: number, capacity = true): string {
  const what = capacity ? 'its GPU capacity was not checked' : 'it was not downloaded, and the review cannot use it';
  return `${formatBytes(bytes)}, over the ${formatBytes(MAX_FILE_CHARS)} gpu-justify reads: ${what}`;
}

function formatBytes(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} bytes`;
}
