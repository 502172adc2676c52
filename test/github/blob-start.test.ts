import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBlobStart, startOf } from '../../src/github/blob-start.js';
import { ApiTreeReader } from '../../src/github/api-tree-reader.js';
import { FakeGitHub, RAW_CHUNK_BYTES } from '../helpers/fake-github.js';
import { CONTENTS_LIMIT, FakeRepo, gitBlobSha } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';

const REPO = { owner: 'o', repo: 'r' };
const bytes = (text: string) => new TextEncoder().encode(text);

describe('startOf', () => {
  it('gives the whole text when it is within the limit, and says so', () => {
    expect(startOf(bytes('a: 1\n'), 5)).toEqual({ text: 'a: 1\n', whole: true });
    expect(startOf(bytes(''), 0)).toEqual({ text: '', whole: true });
    expect(startOf(bytes('a: 1\n'), 4)).toEqual({ text: 'a: 1', whole: false });
  });

  it('leaves out a character the cut splits, whatever its length in bytes', () => {
    for (const char of ['é', '€', '🚀']) {
      const text = `ab${char}cd`;
      const width = bytes(char).length;
      for (let cut = 3; cut < 2 + width; cut++) {
        expect(startOf(bytes(text), cut)).toEqual({ text: 'ab', whole: false });
      }
      expect(startOf(bytes(text), 2 + width)).toEqual({ text: `ab${char}`, whole: false });
    }
  });

  it('reads invalid UTF-8 as replacement characters and keeps a byte-order mark', () => {
    expect(startOf(new Uint8Array([0x61, 0xff, 0x62, 0x0a]), 10)).toEqual({ text: 'a\uFFFDb\n', whole: true });
    expect(startOf(bytes('\uFEFFkind: x\n'), 100).text).toBe('\uFEFFkind: x\n');
  });
});

describe('readBlobStart', () => {
  let fake: FakeGitHub;
  beforeEach(async () => {
    fake = await FakeGitHub.start();
  });
  afterEach(async () => {
    await fake.close();
    expect(fake.errors).toEqual([]);
  });

  /** Serves `text` at the head commit and answers the contents call that makes its blob known. */
  async function stored(text: string): Promise<{ reader: ApiTreeReader; sha: string }> {
    const s = { base: REPO, number: 1, baseSha: 'b'.repeat(40), headSha: 'c'.repeat(40), baseFiles: {}, headFiles: { 'big.yaml': text } };
    new FakeRepo(fake, s).serve();
    const reader = new ApiTreeReader(testOctokit(fake.url), REPO, s.headSha);
    await reader.entry('big.yaml');
    return { reader, sha: gitBlobSha(Buffer.from(text)) };
  }

  it('streams the raw blob and stops once it has one byte more than the limit', async () => {
    const text = `kind: ClusterQueue\n${'x'.repeat(3 * 1024 * 1024)}\n`;
    const { sha } = await stored(text);
    const max = 1024 * 1024;

    const start = await readBlobStart(testOctokit(fake.url), REPO, sha, max);
    await fake.settled();

    expect(start).toEqual({ text: text.slice(0, max), whole: false });
    const [blob, ...more] = fake.calls('GET', /\/git\/blobs\//);
    expect(more).toEqual([]);
    expect(blob?.headers.accept).toBe('application/vnd.github.raw+json');
    expect(blob?.bytesSent).toBeGreaterThan(max);
    // The client gave up after the chunk that passed the limit; the fake noticed within a chunk or two.
    expect(blob?.bytesSent).toBeLessThanOrEqual(max + 3 * RAW_CHUNK_BYTES);
  });

  it('gives the whole blob when it is within the limit', async () => {
    const text = `${'y'.repeat(CONTENTS_LIMIT)}\n`;
    const { sha } = await stored(text);

    expect(await readBlobStart(testOctokit(fake.url), REPO, sha, text.length)).toEqual({ text, whole: true });
    expect(await readBlobStart(testOctokit(fake.url), REPO, sha, text.length - 1)).toEqual({ text: text.slice(0, -1), whole: false });
  });

  it('does not crash on a character cut at the limit', async () => {
    const max = CONTENTS_LIMIT + 10;
    // '🚀' is four bytes; it starts two bytes before the limit.
    const text = `${'z'.repeat(max - 2)}🚀${'z'.repeat(CONTENTS_LIMIT)}\n`;
    const { reader } = await stored(text);

    const start = await reader.readStart('big.yaml', max);

    expect(start).toEqual({ text: 'z'.repeat(max - 2), whole: false });
    expect(fake.calls('GET', /\/git\/blobs\//)).toHaveLength(1);
  });

  it('takes the start of a file the contents API inlined, with no blob call', async () => {
    const { reader } = await stored('kind: ClusterQueue\nrest: 1\n');

    expect(await reader.readStart('big.yaml', 18)).toEqual({ text: 'kind: ClusterQueue', whole: false });
    expect(await reader.readStart('gone.yaml', 18)).toBeNull();
    expect(fake.calls('GET', /\/git\/blobs\//)).toEqual([]);
  });

  it('turns GitHub refusing the blob into a GitHubApiError', async () => {
    await stored('a: 1\n');
    fake.fail('GET', /\/git\/blobs\//, { status: 502, body: { message: 'Bad Gateway' } });

    await expect(readBlobStart(testOctokit(fake.url), REPO, 'f'.repeat(40), 10)).rejects.toMatchObject({ kind: 'github-api', status: 502 });
  });
});
