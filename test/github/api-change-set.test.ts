import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiChangeSet, ApiTreeReader } from '../../src/github/api/change-set.js';
import { MAX_FILE_CHARS } from '../../src/domain/limits.js';
import { UnreadablePathError } from '../../src/domain/files.js';
import type { PullRequestTarget } from '../../src/github/api/client.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { CONTENTS_LIMIT, FakeRepo } from '../helpers/fake-repo.js';
import type { PullRequestState } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';
import { clusterQueue, crdBundle } from './scenarios.js';

const BASE = { owner: 'acme', repo: 'infra' };
const FORK = { owner: 'someone', repo: 'infra-fork' };

let fake: FakeGitHub;
beforeEach(async () => {
  fake = await FakeGitHub.start();
});
afterEach(async () => {
  await fake.close();
  expect(fake.errors).toEqual([]);
});

function state(over: Partial<PullRequestState> = {}): PullRequestState {
  return {
    base: BASE,
    number: 3,
    baseSha: '1'.repeat(40),
    headSha: '2'.repeat(40),
    baseFiles: {},
    headFiles: {},
    ...over,
  };
}

function target(s: PullRequestState): PullRequestTarget {
  return { base: s.base, head: s.head ?? s.base, number: s.number, baseSha: s.baseSha, headSha: s.headSha };
}

describe('ApiTreeReader', () => {
  it('decodes base64 contents at its commit and answers null for a missing file', async () => {
    const s = state({ baseFiles: { 'a/b.yaml': 'quota: 6 — ünïcode\n' } });
    new FakeRepo(fake, s).serve();
    const reader = new ApiTreeReader(testOctokit(fake.url), BASE, s.baseSha);

    expect(await reader.read('a/b.yaml')).toBe('quota: 6 — ünïcode\n');
    expect(await reader.read('missing.yaml')).toBeNull();
    expect(fake.calls('GET', /contents/).map((r) => r.query.get('ref'))).toEqual([s.baseSha, s.baseSha]);
  });

  it('refuses to download a file GitHub says is over a size, and reads one within it', async () => {
    const big = `# ${'x'.repeat(CONTENTS_LIMIT)}\nnominalQuota: 8\n`;
    const s = state({ headFiles: { 'big.yaml': big, 'small.yaml': 'a: 1\n' } });
    new FakeRepo(fake, s).serve();
    const reader = new ApiTreeReader(testOctokit(fake.url), BASE, s.headSha);

    expect(await reader.readWithin('big.yaml', MAX_FILE_CHARS)).toEqual({ tooLarge: Buffer.byteLength(big) });
    expect(await reader.readWithin('small.yaml', MAX_FILE_CHARS)).toEqual({ text: 'a: 1\n' });
    expect(await reader.readWithin('gone.yaml', MAX_FILE_CHARS)).toEqual({ text: null });
    expect(fake.calls('GET', /\/git\/blobs\//)).toEqual([]);
    // Asked for in full, it is downloaded: the limit is the caller's.
    expect(await reader.read('big.yaml')).toBe(big);
    expect(fake.calls('GET', /\/git\/blobs\//)).toHaveLength(1);
    expect(fake.calls('GET', /contents/)).toHaveLength(3);
  });

  it('reads a file over 1 MB through the git blobs API', async () => {
    const big = `# ${'x'.repeat(CONTENTS_LIMIT)}\nnominalQuota: 8\n`;
    const s = state({ headFiles: { 'big.yaml': big } });
    new FakeRepo(fake, s).serve();
    const reader = new ApiTreeReader(testOctokit(fake.url), BASE, s.headSha);

    expect(await reader.read('big.yaml')).toBe(big);
    expect(fake.calls('GET', /\/git\/blobs\/[0-9a-f]{40}$/)).toHaveLength(1);
  });

  it('fetches each path once, even when asked concurrently', async () => {
    const s = state({ baseFiles: { 'q.yaml': 'x: 1\n' } });
    new FakeRepo(fake, s).serve();
    const reader = new ApiTreeReader(testOctokit(fake.url), BASE, s.baseSha);

    const texts = await Promise.all([reader.read('q.yaml'), reader.read('q.yaml'), reader.read('/q.yaml')]);
    await reader.read('nope.yaml');
    await reader.read('nope.yaml');

    expect(texts).toEqual(['x: 1\n', 'x: 1\n', 'x: 1\n']);
    expect(fake.calls('GET', /contents/)).toHaveLength(2);
  });

  it('treats a directory as no file', async () => {
    fake.on('GET', '/repos/acme/infra/contents/*path', () => ({
      body: [{ type: 'file', name: 'a.yaml', path: 'dir/a.yaml', sha: 'a'.repeat(40), size: 3 }],
    }));
    const reader = new ApiTreeReader(testOctokit(fake.url), BASE, 'main');

    expect(await reader.read('dir')).toBeNull();
  });

  it('lets other GitHub failures through, with their status', async () => {
    fake.on('GET', '/repos/acme/infra/contents/*path', () => ({ status: 502, body: { message: 'Bad Gateway' } }));
    const reader = new ApiTreeReader(testOctokit(fake.url), BASE, 'main');

    await expect(reader.read('q.yaml')).rejects.toMatchObject({
      kind: 'github-api',
      status: 502,
      message: 'GitHub API refused: 502 on GET /repos/acme/infra/contents/q.yaml',
    });
  });
});

describe('ApiChangeSet', () => {
  it('lists every changed path across pages, with the old name of a rename', async () => {
    const baseFiles: Record<string, string> = { 'old/queue.yaml': 'q: 1\n', 'keep.yaml': 'same\n' };
    const headFiles: Record<string, string> = { 'new/queue.yaml': 'q: 1\n', 'keep.yaml': 'same\n' };
    for (let i = 0; i < 5; i++) headFiles[`added-${i}.yaml`] = `n: ${i}\n`;
    const s = state({ baseFiles, headFiles, renames: { 'new/queue.yaml': 'old/queue.yaml' } });
    const repo = new FakeRepo(fake, s).serve();
    repo.perPage = 2;
    const changes = new ApiChangeSet(testOctokit(fake.url), target(s));

    const paths = await changes.changedPaths();

    expect([...paths].sort()).toEqual(
      ['added-0.yaml', 'added-1.yaml', 'added-2.yaml', 'added-3.yaml', 'added-4.yaml', 'new/queue.yaml', 'old/queue.yaml'].sort(),
    );
    expect(fake.calls('GET', '/repos/acme/infra/pulls/3/files')).toHaveLength(3);
    await changes.changedPaths();
    expect(fake.calls('GET', '/repos/acme/infra/pulls/3/files')).toHaveLength(3);
  });

  it('reads the base from the base repository and the head from the fork', async () => {
    const s = state({ head: FORK, baseFiles: { 'q.yaml': 'base\n' }, headFiles: { 'q.yaml': 'head\n' } });
    new FakeRepo(fake, s).serve();
    const changes = new ApiChangeSet(testOctokit(fake.url), target(s));

    expect(await changes.base.read('q.yaml')).toBe('base\n');
    expect(await changes.head.read('q.yaml')).toBe('head\n');
    expect(changes.head.label).toBe(`someone/infra-fork@${s.headSha}`);
    expect(fake.calls('GET', /contents/).map((r) => r.path)).toEqual([
      '/repos/acme/infra/contents/q.yaml',
      '/repos/someone/infra-fork/contents/q.yaml',
    ]);
  });
});

describe('ApiChangeSet read sparingly', () => {
  const QUEUE = clusterQueue(8);
  const CONFIG = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n  b: "2"\n  c: "3"\n';
  const reads = (side: string) =>
    fake
      .calls('GET', /\/contents\//)
      .filter((r) => r.query.get('ref') === side)
      .map((r) => r.path.replace(/^.*\/contents\//, ''));

  async function sparing(s: PullRequestState, keepExact: string[] = []): Promise<ApiChangeSet> {
    const changes = new ApiChangeSet(testOctokit(fake.url), target(s));
    changes.readSparingly(keepExact);
    await changes.changedPaths();
    return changes;
  }

  it('rebuilds the base of a file no side of which could hold capacity from its diff, without reading it', async () => {
    const s = state({
      baseFiles: { 'app/deploy.yaml': CONFIG, 'added.yaml': 'x: 1\n' },
      headFiles: { 'app/deploy.yaml': CONFIG.replace('b: "2"', 'b: "20"'), 'new.yaml': 'y: 2\n', 'added.yaml': 'x: 1\n' },
    });
    new FakeRepo(fake, s).serve();
    const changes = await sparing(s);

    expect(await changes.base.read('app/deploy.yaml')).toBe(CONFIG);
    expect(await changes.head.read('app/deploy.yaml')).toBe(s.headFiles['app/deploy.yaml']);
    expect(await changes.base.read('new.yaml')).toBeNull();
    expect(reads(s.baseSha)).toEqual([]);
    expect(reads(s.headSha)).toEqual(['app/deploy.yaml', 'new.yaml']);
  });

  it('reads both sides of a file whose base declared GPUs and whose head no longer does', async () => {
    // The head alone passes no cheap check; the rebuilt base does, so the base is read.
    const base = `${QUEUE}---\n${CONFIG}`;
    const s = state({ baseFiles: { 'q.yaml': base, 'gone.yaml': QUEUE }, headFiles: { 'q.yaml': CONFIG } });
    new FakeRepo(fake, s).serve();
    const changes = await sparing(s);

    expect(await changes.base.read('q.yaml')).toBe(base);
    expect(await changes.head.read('q.yaml')).toBe(CONFIG);
    expect(await changes.base.read('gone.yaml')).toBe(QUEUE);
    expect(await changes.head.read('gone.yaml')).toBeNull();
    expect(reads(s.baseSha).sort()).toEqual(['gone.yaml', 'q.yaml']);
  });

  it('reads a removed file once when it could hold no capacity', async () => {
    const s = state({ baseFiles: { 'old.yaml': CONFIG } });
    new FakeRepo(fake, s).serve();
    const changes = await sparing(s);

    expect(await changes.base.read('old.yaml')).toBe(CONFIG);
    expect(await changes.head.read('old.yaml')).toBeNull();
    expect(fake.calls('GET', /\/contents\//).map((r) => r.query.get('ref'))).toEqual([s.headSha]);
  });

  it('reads the base when the diff is missing, is of another head, or the path is kept exact', async () => {
    const s = state({
      baseFiles: { 'a.yaml': CONFIG, 'b.yaml': CONFIG, 'policy.yml': CONFIG },
      headFiles: { 'a.yaml': `${CONFIG}d: "4"\n`, 'b.yaml': `${CONFIG}e: "5"\n`, 'policy.yml': `${CONFIG}f: "6"\n` },
    });
    const repo = new FakeRepo(fake, s).serve();
    repo.patchLimit = 40;
    const changes = await sparing(s, ['/policy.yml']);

    expect(await changes.base.read('a.yaml')).toBe(CONFIG);
    expect(await changes.base.read('policy.yml')).toBe(CONFIG);
    expect(reads(s.baseSha)).toEqual(['a.yaml', 'policy.yml']);

    // The list is of the PR as it is now; the review is of an older head.
    const older = state({ ...s, headSha: '3'.repeat(40), headFiles: { ...s.headFiles, 'b.yaml': `${CONFIG}e: "old"\n` } });
    repo.addTree(BASE, older.headSha, older.headFiles);
    repo.patchLimit = Infinity;
    const atOlder = await sparing(older);
    expect(await atOlder.base.read('b.yaml')).toBe(CONFIG);
    expect(reads(s.baseSha)).toEqual(['a.yaml', 'policy.yml', 'b.yaml']);
  });

  it('does not download a changed head over the size limit: its read is unreadable, naming it; a base over it reads as absent', async () => {
    const big = `${QUEUE}# ${'x'.repeat(MAX_FILE_CHARS)}\n`;
    const s = state({ baseFiles: { 'q.yaml': QUEUE, 'was-big.yaml': big }, headFiles: { 'q.yaml': big, 'was-big.yaml': QUEUE } });
    new FakeRepo(fake, s).serve();
    const changes = await sparing(s);

    await expect(changes.head.read('q.yaml')).rejects.toEqual(
      new UnreadablePathError(
        'q.yaml',
        `${Buffer.byteLength(big).toLocaleString('en-US')} bytes, over the 1,048,576 bytes gpu-justify reads: its GPU capacity was not checked`,
      ),
    );
    expect(await changes.base.read('q.yaml')).toBe(QUEUE);
    expect(await changes.base.read('was-big.yaml')).toBeNull();
    expect(await changes.head.read('was-big.yaml')).toBe(QUEUE);
    // Named by detection, from the read: not among the inputs refused.
    expect(changes.refusedFiles()).toEqual([]);
    expect(fake.calls('GET', /\/git\/blobs\//)).toEqual([]);
  });

  describe('a head over the size limit', () => {
    const MiB = 1024 * 1024;
    const blobCalls = () => fake.calls('GET', /\/git\/blobs\//);

    it.each([
      ['its listed diff shows a queue', { 'crds.yaml': crdBundle(3 * MiB) }, { 'crds.yaml': `${crdBundle(3 * MiB)}---\n${QUEUE}` }],
      ['its base held a queue', { 'crds.yaml': QUEUE }, { 'crds.yaml': `${crdBundle(3 * MiB)}---\n${QUEUE}` }],
      [
        'neither its start, its diff nor its base shows one',
        { 'crds.yaml': crdBundle(3 * MiB) },
        { 'crds.yaml': `${crdBundle(3 * MiB)}# more\n` },
      ],
      ['it is new and its queue is past its start, with no diff listed', {}, { 'crds.yaml': `${crdBundle(3 * MiB)}---\n${QUEUE}` }],
    ])('is unreadable when %s, and nothing of it is downloaded', async (_when, baseFiles, headFiles) => {
      const s = state({ baseFiles, headFiles });
      new FakeRepo(fake, s).serve();
      const changes = await sparing(s);

      await expect(changes.head.read('crds.yaml')).rejects.toBeInstanceOf(UnreadablePathError);
      expect(blobCalls()).toEqual([]);
    });
  });

  it('reads as before unless asked to read sparingly', async () => {
    const s = state({ baseFiles: { 'a.yaml': CONFIG }, headFiles: { 'a.yaml': `${CONFIG}d: "4"\n` } });
    new FakeRepo(fake, s).serve();
    const changes = new ApiChangeSet(testOctokit(fake.url), target(s));

    expect(await changes.base.read('a.yaml')).toBe(CONFIG);
    expect(reads(s.baseSha)).toEqual(['a.yaml']);
  });
});
