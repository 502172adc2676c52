import type { TreeReader } from '../../domain/files.js';
import type { GitHubClient, RepoRef } from './client.js';
import type { GraphqlBlobs } from './graphql-blobs.js';
import { normalise } from './listed-file.js';
import { blobId, isDirectoryOfBase, notAFileOfBase } from './not-a-file.js';
import { ApiTreeListing } from './tree-listing.js';
import { ApiTreeReader } from './tree-reader.js';

/** A side that can say why a path there is no file, and give a file's blob id unread. */
export type SideReader = TreeReader & Required<Pick<TreeReader, 'notAFile' | 'contentId'>>;

/** A side the policy is read from: it can also tell a plain directory at a policy path. */
export type PolicySide = SideReader & Required<Pick<TreeReader, 'isDirectory'>>;

/**
 * One commit of a repository read as the review reads the base: a policy read through it tells a
 * submodule, a link out of the tree, a path under a linked directory or a file over the size limit
 * from "no policy", so an override command or a redelivered push judges by the same policy, read
 * the same way, as the review that follows (see review/policy-file.ts).
 */
export function sideReader(octokit: GitHubClient, repo: RepoRef, sha: string, blobs: GraphqlBlobs | null = null): PolicySide {
  const listing = new ApiTreeListing(octokit, repo, sha, blobs);
  const tree = new ApiTreeReader(octokit, repo, sha, blobs, listing);
  return {
    label: tree.label,
    read: (path) => tree.read(normalise(path)),
    list: (dir) => listing.list(dir),
    dirs: (dir) => listing.dirs(dir),
    notAFile: (path) => notAFileOfBase(listing, tree, normalise(path)),
    contentId: (path) => blobId(tree, normalise(path)),
    isDirectory: (path) => isDirectoryOfBase(listing, tree, normalise(path)),
  };
}
