import type { GitHubClient, RepoRef } from './client.js';
import { GitHubApiError } from './errors.js';

/** The start of a file: all of it when `whole`, else its first bytes up to a limit. */
export interface FileStart {
  text: string;
  whole: boolean;
}

/**
 * The first `maxBytes` bytes of a blob, or the whole blob when it is no larger: read from the raw
 * blob as a stream that is cancelled once one byte more than `maxBytes` has arrived, so a file of
 * 100 MB costs about `maxBytes` of download however large it is.
 */
export async function readBlobStart(octokit: GitHubClient, repo: RepoRef, sha: string, maxBytes: number): Promise<FileStart> {
  let data: unknown;
  try {
    ({ data } = await octokit.request('GET /repos/{owner}/{repo}/git/blobs/{file_sha}', {
      ...repo,
      file_sha: sha,
      headers: { accept: 'application/vnd.github.raw+json' },
      // The body as a ReadableStream, left unread until we read it.
      request: { parseSuccessResponseBody: false },
    }));
  } catch (err) {
    throw GitHubApiError.from(err) ?? err;
  }
  // No body at all is an empty blob.
  if (data === null || data === undefined || data === '') return { text: '', whole: true };
  if (!(data instanceof ReadableStream)) throw new TypeError('the raw blob answer has no readable body');
  const reader = (data as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  try {
    while (length <= maxBytes) {
      const next = await reader.read();
      if (next.done) {
        ended = true;
        break;
      }
      chunks.push(next.value);
      length += next.value.length;
    }
  } finally {
    // Cancelling closes the connection: the rest of the blob is never sent.
    if (!ended) await reader.cancel().catch(() => undefined);
  }
  return startOf(Buffer.concat(chunks, length), maxBytes);
}

/**
 * The bytes as text when there are at most `maxBytes` of them, else the text of the first
 * `maxBytes`. Decoded leniently: invalid UTF-8 becomes U+FFFD, and a character the cut splits is
 * left out rather than read as garbage or thrown on.
 */
export function startOf(bytes: Uint8Array, maxBytes: number): FileStart {
  // A byte-order mark is kept, as the contents API's base64 decodes with it.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  if (bytes.length <= maxBytes) return { text: decoder.decode(bytes), whole: true };
  // `stream: true` keeps an incomplete last character back for a next call that never comes.
  return { text: decoder.decode(bytes.subarray(0, maxBytes), { stream: true }), whole: false };
}
