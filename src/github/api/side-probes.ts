import { UnreadablePathError, submoduleReason } from '../../domain/files.js';
import type { TreeReader } from '../../domain/files.js';
import type { GitHubClient, RepoRef } from './client.js';
import type { GraphqlBlobs } from './graphql-blobs.js';
import { LINK_MODE, normalise, SUBMODULE_MODE } from './listed-file.js';
import { ApiTreeListing } from './tree-listing.js';
import { ApiTreeReader } from './tree-reader.js';

/** A side that can say why a path there is no file, and give a file's blob id unread. */
export type SideReader = TreeReader & Required<Pick<TreeReader, 'notAFile' | 'contentId'>>;

/**
 * One commit of a repository read as the review reads the base: a policy read through it tells a
 * submodule, a link out of the tree, a path under a linked directory or a file over the size limit
 * from "no policy", so an override command or a redelivered push judges by the same policy, read
 * the same way, as the review that follows (see review/policy-file.ts).
 */
export function sideReader(octokit: GitHubClient, repo: RepoRef, sha: string, blobs: GraphqlBlobs | null = null): SideReader {
  const tree = new ApiTreeReader(octokit, repo, sha, blobs);
  const listing = new ApiTreeListing(octokit, repo, sha, blobs);
  return {
    label: tree.label,
    read: (path) => tree.read(normalise(path)),
    list: (dir) => listing.list(dir),
    dirs: (dir) => listing.dirs(dir),
    notAFile: (path) => notAFileAt(listing, tree, normalise(path)),
    contentId: (path) => blobId(tree, normalise(path)),
  };
}

/** Why a path is there on a side but is no file (see ApiChangeSet's #notAFile); null for a file or nothing. */
export async function notAFileAt(listing: ApiTreeListing, tree: ApiTreeReader, path: string): Promise<string | null> {
  const entry = await listing.entry(path);
  if (entry !== null && entry.mode === SUBMODULE_MODE) return submoduleReason(entry.sha);
  if (entry?.mode === LINK_MODE) {
    try {
      await tree.read(path);
      return null;
    } catch (err) {
      if (err instanceof UnreadablePathError) return err.why;
      throw err;
    }
  }
  if (entry !== null) return null;
  // Nothing of that name in its directory: is the directory itself inside a submodule or a link?
  const parts = path.split('/');
  for (let depth = parts.length - 1; depth > 0; depth--) {
    const dir = parts.slice(0, depth).join('/');
    const above = await listing.entry(dir);
    if (above === null) continue;
    if (above.mode === SUBMODULE_MODE) return `in ${dir}, ${submoduleReason(above.sha)}`;
    if (above.mode === LINK_MODE)
      return `in ${dir}, a symbolic link to a directory: the files it stands for were not read, so what it declares is unknown`;
    return null;
  }
  return null;
}

/**
 * The git blob id GitHub gives for a path on one side (a hash of its content, known without the
 * file being downloaded); null when there is none. A failure to ask is null too: a side once known
 * by its id then differs, so a grant bound to it lapses rather than holds on nothing.
 */
export async function blobId(tree: ApiTreeReader, path: string): Promise<string | null> {
  try {
    return (await tree.entry(path))?.sha ?? null;
  } catch {
    return null;
  }
}
