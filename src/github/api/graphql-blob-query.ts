import { z } from 'zod';
import { GitHubAnswerError } from './answers.js';
import type { RepoRef } from './client.js';
import { SIZE_FRAGMENT } from './graphql-sizes.js';

/**
 * The GraphQL query that asks many blobs and directories at once, and the reading of its answer:
 * what GraphqlBlobs sends and settles, apart from when and how it sends.
 */

/**
 * What GitHub's GraphQL API says of one path at one commit:
 * - `absent`: no such file (or no such repository);
 * - `file`: its blob, its size, and its text when GraphQL served it whole (null for a truncated
 *   or binary blob, whose bytes the REST blob API serves); `withheld` when a prefetch left a text
 *   blob's text out past its bytes (the REST blob API serves it, if it is read);
 * - `rest`: GraphQL cannot tell, or was not asked: the REST contents API answers instead.
 */
export type BlobAnswer =
  { kind: 'absent' } | { kind: 'file'; sha: string; size: number; text: string | null; withheld?: true } | { kind: 'rest' };

/** One blob asked for: a path in a repository at a commit, or at its default branch when `ref` is null. */
export interface BlobAt {
  repo: RepoRef;
  ref: string | null;
  path: string;
}

/** One entry of a directory as GraphQL's `Tree.entries` gives it; `mode` is Git's, as a number. */
interface GraphqlTreeEntry {
  name: string;
  type: string;
  mode: number;
  oid: string;
}

/**
 * What GraphQL says of a directory: `absent` (no such directory: nothing there, or a file), its
 * `entries`, or `rest` (not asked, GraphQL failed, or too large to trust whole): the trees API answers.
 */
export type TreeAnswer = { kind: 'absent' } | { kind: 'tree'; entries: GraphqlTreeEntry[] } | { kind: 'rest' };

/**
 * Entries above which a directory GraphQL lists is listed again through the trees API: GitHub
 * documents no limit on `Tree.entries` and no way to tell a cut answer, while the trees API says
 * `truncated`. Directories a review lists hold a few dozen entries.
 */
const MAX_TREE_ENTRIES = 1000;

/**
 * A symbolic link's blob holds its target: one line with no newline, at most PATH_MAX bytes.
 * GraphQL's `object(expression:)` does not say a blob is a link (that is the tree entry's mode),
 * so a text of that shape is asked again over REST, which reads links as it always has.
 */
export const LINK_SHAPED_MAX = 4096;

const blobNode = z.object({
  __typename: z.literal('Blob'),
  oid: z.string().regex(/^[0-9a-f]{40}$/),
  byteSize: z.number().int().nonnegative(),
  isBinary: z.boolean().nullable(),
  isTruncated: z.boolean(),
  text: z.string().nullable(),
});
/** A tree (a directory) or a commit (a submodule): no file here, which REST reports as it always has. */
const otherNode = z.object({ __typename: z.enum(['Tree', 'Commit', 'Tag']) });
const objectNode = z.union([blobNode, otherNode]).nullable();
const treeNode = z.object({
  __typename: z.literal('Tree'),
  entries: z.array(
    z.object({ name: z.string().min(1), type: z.string(), mode: z.number().int().nonnegative(), oid: z.string().regex(/^[0-9a-f]{40}$/) }),
  ),
});
const directoryNode = z.union([treeNode, z.object({ __typename: z.enum(['Blob', 'Commit', 'Tag']) })]).nullable();
const repositoryNode = z.record(z.string(), z.unknown()).nullable();
export const answerShape = z.record(z.string(), repositoryNode);

/** A blob asked for, or (`tree`) a directory's entries, or (`sizeOnly`) a blob's size and kind. */
export interface Asked extends BlobAt {
  tree?: boolean;
  sizeOnly?: boolean;
}

/**
 * One query for a chunk: a `repository` alias per repository, an `object` alias per blob (or per
 * directory, its entries asked through `... on Tree`), values as variables.
 */
export function blobQuery(chunk: readonly Asked[]): {
  query: string;
  variables: Record<string, string>;
  aliases: [string, string][];
} {
  const repos = new Map<string, { alias: string; fields: string[] }>();
  const variables: Record<string, string> = {};
  const declared: string[] = [];
  const aliases: [string, string][] = [];
  chunk.forEach((at, i) => {
    const repoKey = `${at.repo.owner}/${at.repo.repo}`;
    let repo = repos.get(repoKey);
    if (!repo) {
      const r = repos.size;
      repo = { alias: `r${r}`, fields: [] };
      repos.set(repoKey, repo);
      variables[`o${r}`] = at.repo.owner;
      variables[`n${r}`] = at.repo.repo;
      declared.push(`$o${r}: String!`, `$n${r}: String!`);
    }
    variables[`x${i}`] = `${at.ref ?? 'HEAD'}:${at.path}`;
    declared.push(`$x${i}: String!`);
    const fragment = at.tree
      ? '... on Tree { entries { name type mode oid } }'
      : at.sizeOnly
        ? SIZE_FRAGMENT
        : '... on Blob { oid byteSize isBinary isTruncated text }';
    repo.fields.push(`b${i}: object(expression: $x${i}) { __typename ${fragment} }`);
    aliases.push([repo.alias, `b${i}`]);
  });
  const body = [...repos.values()].map((r, n) => `r${n}: repository(owner: $o${n}, name: $n${n}) { ${r.fields.join(' ')} }`);
  return { query: `query GpuJustifyBlobs(${declared.join(', ')}) { ${body.join(' ')} }`, variables, aliases };
}

/** The aliased object of a repository's answer, checked; null when the repository or the object is absent. */
export function aliasedNode<T>(
  path: string,
  repository: Record<string, unknown> | null | undefined,
  alias: string,
  schema: z.ZodType<T | null>,
  what: 'file' | 'directory',
): T | null {
  if (repository === undefined) throw new GitHubAnswerError(path, 'the GraphQL answer left its repository out');
  if (repository === null) return null;
  if (!(alias in repository)) throw new GitHubAnswerError(path, `the GraphQL answer left the ${what} out`);
  const node = schema.safeParse(repository[alias]);
  if (!node.success) throw new GitHubAnswerError(path, `unexpected GraphQL answer: ${node.error.issues[0]?.message ?? 'invalid'}`);
  return node.data;
}

export function answerOf(path: string, repository: Record<string, unknown> | null | undefined, alias: string): BlobAnswer {
  const node = aliasedNode(path, repository, alias, objectNode, 'file');
  if (node === null) return { kind: 'absent' };
  if (node.__typename !== 'Blob') return { kind: 'rest' };
  const { oid, byteSize, isBinary, isTruncated, text } = node;
  if (isTruncated || isBinary === true || text === null) return { kind: 'file', sha: oid, size: byteSize, text: null };
  if (linkShaped(text)) return { kind: 'rest' };
  return { kind: 'file', sha: oid, size: byteSize, text };
}

export function treeOf(path: string, repository: Record<string, unknown> | null | undefined, alias: string): TreeAnswer {
  const node = aliasedNode(path, repository, alias, directoryNode, 'directory');
  if (node === null || node.__typename !== 'Tree') return { kind: 'absent' };
  if (node.entries.length > MAX_TREE_ENTRIES) return { kind: 'rest' };
  return { kind: 'tree', entries: node.entries };
}

function linkShaped(text: string): boolean {
  return text !== '' && !text.includes('\n') && Buffer.byteLength(text) <= LINK_SHAPED_MAX;
}

/**
 * GitHub answers a repository it cannot see with `null` and a NOT_FOUND error at its alias, the
 * rest of the answer intact: the REST API's 404. Any other error fails the query.
 */
export function missingRepositories(err: unknown): unknown {
  if (typeof err !== 'object' || err === null) return null;
  const { errors, data } = err as { errors?: unknown; data?: unknown };
  if (!Array.isArray(errors) || errors.length === 0 || typeof data !== 'object' || data === null) return null;
  const notFound = errors.every((e: unknown) => {
    const { type, path } = (e ?? {}) as { type?: unknown; path?: unknown };
    return type === 'NOT_FOUND' && Array.isArray(path) && path.length === 1 && (data as Record<string, unknown>)[String(path[0])] === null;
  });
  return notFound ? data : null;
}

export function keyOf(at: BlobAt): string {
  return `${at.repo.owner}/${at.repo.repo}@${at.ref ?? 'HEAD'}:${at.path}`;
}
