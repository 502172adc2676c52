import { z } from 'zod';

/** GraphQL serves a blob's text whole up to this size; a smaller blob without text is binary (unless withheld). */
export const GRAPHQL_WHOLE_BYTES = 512_000;

/**
 * Text bytes one GraphQL query of a prefetch may answer. Octokit reads, decodes and parses each
 * answer whole on the App's thread, which serves every webhook and `/ping`: 250 blobs just under
 * GraphQL's whole size are a 128 MB answer, seconds of that thread. Larger prefetches ask the
 * blobs' sizes first (a few dozen bytes each), then their text in queries of at most this many bytes.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** A blob's size and kind, without its text; or what stands at the path when it is no blob. */
export type BlobSize =
  | { kind: 'sized'; sha: string; size: number; binary: boolean }
  /** No blob: nothing there (`absent`), or a directory, a submodule or a tag, which REST reports (`rest`). */
  | { kind: 'answered'; answer: { kind: 'absent' } | { kind: 'rest' } };

const sizeNode = z
  .union([
    z.object({
      __typename: z.literal('Blob'),
      oid: z.string().regex(/^[0-9a-f]{40}$/),
      byteSize: z.number().int().nonnegative(),
      isBinary: z.boolean().nullable(),
    }),
    z.object({ __typename: z.enum(['Tree', 'Commit', 'Tag']) }),
  ])
  .nullable();

/** The fragment a sizes query asks of each blob. */
export const SIZE_FRAGMENT = '... on Blob { oid byteSize isBinary }';

/** One aliased object of a sizes answer, checked; throws on an answer of the wrong shape. */
export function sizeOf(node: unknown): BlobSize {
  const parsed = sizeNode.safeParse(node);
  if (!parsed.success) throw new Error(`unexpected GraphQL answer: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const n = parsed.data;
  if (n === null) return { kind: 'answered', answer: { kind: 'absent' } };
  if (n.__typename !== 'Blob') return { kind: 'answered', answer: { kind: 'rest' } };
  return { kind: 'sized', sha: n.oid, size: n.byteSize, binary: n.isBinary === true };
}

/** Blobs in chunks of at most `maxCount` and `maxBytes` of text each (a blob larger alone is a chunk of its own). */
export function chunksByBytes<T extends { size: number }>(items: readonly T[], maxCount: number, maxBytes: number): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (chunk.length > 0 && (chunk.length >= maxCount || bytes + item.size > maxBytes)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += item.size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
