import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiChangeSet, ApiTreeReader } from '../../src/github/api-change-set.js';
import type { PullRequestTarget } from '../../src/github/client.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { CONTENTS_LIMIT, FakeRepo } from '../helpers/fake-repo.js';
import type { PullRequestState } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';

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
