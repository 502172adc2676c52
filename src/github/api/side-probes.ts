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

/**
 * A repository's default branch, as an inherited policy (`_extends`, the organisation's `.github`)
 * is read: through the same probes as the base's own policy, so a submodule, a link out of the
 * tree or to a directory, a link whose `..` leaves a linked directory, a plain directory or a file
 * over the size limit there is told from "no file", whether GraphQL or REST answered the read
 * (GraphQL answers a submodule with nothing).
 */
export function defaultBranchReader(octokit: GitHubClient, repo: RepoRef, blobs: GraphqlBlobs | null = null): PolicySide {
  // Consulted where GraphQL listed the policy's directory (see policyTrees), else the contents API answers.
  const listing = new ApiTreeListing(octokit, repo, null, blobs);
  // The branch's tree tells where a link's `..` climbs out of a linked directory: GitHub takes it
  // lexically and answers with a file a checkout never reaches, so such a link is an error on the
  // policy file, never the policy GitHub's reading finds (an `advise` beside an `enforce`).
  const tree = new ApiTreeReader(octokit, repo, null, blobs, listing);
  return {
    label: tree.label,
    read: (path) => tree.read(normalise(path)),
    notAFile: (path) => notAFileOfBase(listing, tree, normalise(path)),
    contentId: (path) => blobId(tree, normalise(path)),
    isDirectory: (path) => isDirectoryOfBase(listing, tree, normalise(path)),
  };
}
