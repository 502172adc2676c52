import { PARSERS } from '../../detect/index.js';
import type { GitHubClient } from './client.js';
import { MAX_LISTED_FILES } from './tree-diff.js';

// What the pull request's file list says of each file, and the small rules ApiChangeSet reads it by.

/** One entry of the pull request's file list. */
export interface ListedFile {
  filename: string;
  status: string;
  /** The head side's blob. */
  sha: string | null;
  /** Unified diff, merge base → head; GitHub leaves it out for large or binary diffs. */
  patch: string | null;
  previousFilename: string | null;
}

/** Git's modes of a submodule and of a symbolic link, as the trees API spells them. */
export const SUBMODULE_MODE = '160000';
export const LINK_MODE = '120000';

export function hasNext(link: string | undefined): boolean {
  return link !== undefined && /rel="next"/.test(link);
}

export { GRAPHQL_WHOLE_BYTES } from './graphql-sizes.js';

/** Files per page of the pull request's file list, GitHub's most. */
export const FILES_PER_PAGE = 100;
/** Files a comparison of two commits lists at most. */
export const MAX_COMPARED_FILES = 300;
/** Pages of it GitHub serves at most: 3,000 files. */
export const MAX_FILE_PAGES = MAX_LISTED_FILES / FILES_PER_PAGE;

/**
 * Characters of a side up to which its base is rebuilt from the diff on the App's thread: the
 * parsers' cheap checks take ~20 ms on 500 KB of hostile text, 3,000 files of which would hold
 * the thread for a minute; 64 KB keep each under 3 ms and cover usual manifests.
 */
export const REBUILT_BASE_MAX_CHARS = 64 * 1024;

/**
 * Whether the base side will be read, not rebuilt, as far as the listing shows: its diff is
 * missing or is not a plain edit, or the diff's own lines pass a parser's cheap check (the
 * declarations it touches). A guess for prefetching only: what is read is decided as always.
 */
export function baseLikelyRead(file: ListedFile): boolean {
  if (file.patch === null || (file.status !== 'modified' && file.status !== 'removed')) return true;
  if (file.patch.length > REBUILT_BASE_MAX_CHARS) return true;
  return parsersMightHold(file.filename, file.patch);
}

export function parsersMightHold(path: string, text: string | null): boolean {
  return text !== null && PARSERS.some((p) => (p.acceptsPath?.(path) ?? true) && p.mightContain(path, text));
}

export function normalise(path: string): string {
  return path.replace(/^\/+/, '');
}

/** The directories holding `path`, the root (`''`) first. */
export function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

/** The host repositories are cloned from: github.com for api.github.com, the server's own for GitHub Enterprise (`…/api/v3`). */
export function webHost(octokit: GitHubClient): string {
  const base = (octokit.request as { endpoint?: { DEFAULTS?: { baseUrl?: unknown } } }).endpoint?.DEFAULTS?.baseUrl;
  try {
    const host = new URL(typeof base === 'string' ? base : 'https://api.github.com').host;
    return host === 'api.github.com' ? 'github.com' : host.replace(/^api\./, '');
  } catch {
    return 'github.com';
  }
}
