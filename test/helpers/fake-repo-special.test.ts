import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeGitHub } from './fake-github.js';
import { FakeRepo } from './fake-repo.js';
import type { PullRequestState } from './fake-repo.js';
import { checkResponse } from './openapi.js';

/**
 * Links, submodules, renames and GitHub's limits as the fake serves them: tree SHAs and modes as
 * git computes them, and every JSON answer valid against GitHub's OpenAPI description.
 */

let fake: FakeGitHub;
beforeEach(async () => {
  fake = await FakeGitHub.start();
});
afterEach(async () => {
  await fake.close();
  expect(fake.errors).toEqual([]);
});

const SUB = 'a'.repeat(40);
const files = { 'clusters/shared/queues.yaml': 'kind: ClusterQueue\n', 'clusters/prod/settings.yaml': 'kind: ConfigMap\n' };
const special = {
  'clusters/prod/queues.yaml': { link: '../shared/queues.yaml' },
  'clusters/prod/escape.yaml': { link: '../../../etc/passwd' }, // hostile link target: data, never read
  'clusters/prod/shared': { link: '../shared' },
  'vendor/quotas': { submodule: SUB, url: 'https://github.com/o/quotas.git' },
};

function serve(over: Partial<PullRequestState> = {}): FakeRepo {
  return new FakeRepo(fake, {
    base: { owner: 'o', repo: 'r' },
    number: 1,
    baseSha: '1'.repeat(40),
    headSha: '2'.repeat(40),
    baseFiles: {},
    headFiles: files,
    headSpecial: special,
    ...over,
  }).serve();
}

const get = async (url: string): Promise<{ status: number; body: unknown }> => {
  const res = await fetch(`${fake.url}${url}`);
  return { status: res.status, body: await res.json() };
};

describe('FakeRepo links and submodules', () => {
  it('lists them in trees with the modes, types and SHAs git gives them', async () => {
    serve();
    const dir = mkdtempSync(path.join(tmpdir(), 'gj-special-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', dir, ...args])
          .toString()
          .trim();
      git('init', '-q');
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      for (const [file, e] of Object.entries(special)) if ('link' in e) symlinkSync(e.link, path.join(dir, file));
      git('add', '-A');
      git('update-index', '--add', '--cacheinfo', `160000,${SUB},vendor/quotas`);
      const root = git('write-tree');
      const lsTree = git('ls-tree', '-r', '-t', root)
        .split('\n')
        .map((line) => {
          const [meta = '', p = ''] = line.split('\t');
          const [mode, type, sha] = meta.split(' ');
          return { path: p, mode: mode === '040000' ? '040000' : mode, type, sha };
        });

      const { body } = await get(`/repos/o/r/git/trees/${'2'.repeat(40)}?recursive=1`);
      expect(checkResponse('GET', `/repos/o/r/git/trees/${'2'.repeat(40)}`, body)).toEqual([]);
      const tree = body as { sha: string; tree: { path: string; mode: string; type: string; sha: string }[] };
      expect(tree.sha).toBe(root);
      expect(tree.tree.map((e) => ({ path: e.path, mode: e.mode, type: e.type, sha: e.sha }))).toEqual(lsTree);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the contents API as GitHub does: a link to a file with the file, other links and submodules as themselves', async () => {
    serve();
    const at = (p: string) => get(`/repos/o/r/contents/${p}?ref=${'2'.repeat(40)}`);
    const cases: [string, Record<string, unknown>][] = [
      ['clusters/prod/queues.yaml', { type: 'file', path: 'clusters/shared/queues.yaml' }],
      ['clusters/prod/escape.yaml', { type: 'symlink', target: '../../../etc/passwd' }], // hostile link target: data, never read
      ['clusters/prod/shared', { type: 'symlink', target: '../shared' }],
      ['vendor/quotas', { type: 'submodule', sha: SUB, submodule_git_url: 'https://github.com/o/quotas.git' }],
    ];
    for (const [p, want] of cases) {
      const { status, body } = await at(p);
      expect(status).toBe(200);
      expect(body).toMatchObject(want);
      expect(checkResponse('GET', `/repos/o/r/contents/${p}`, body)).toEqual([]);
    }
    const listing = await at('clusters/prod');
    expect(checkResponse('GET', '/repos/o/r/contents/clusters/prod', listing.body)).toEqual([]);
    expect((listing.body as { name: string }[]).map((e) => e.name)).toEqual(['escape.yaml', 'queues.yaml', 'settings.yaml', 'shared']);
    expect((await at('vendor/quotas/queues.yaml')).status).toBe(404);
    expect((await at('clusters/prod/shared/queues.yaml')).status).toBe(404);
  });

  it('answers GraphQL with a link as its own blob, a submodule as null, and tree entries with their modes', async () => {
    serve();
    const query =
      'query GpuJustifyBlobs($o0: String!, $n0: String!, $x0: String!, $x1: String!, $x2: String!) { r0: repository(owner: $o0, name: $n0) { ' +
      'b0: object(expression: $x0) { __typename ... on Blob { text } } b1: object(expression: $x1) { __typename ... on Blob { text } } ' +
      'b2: object(expression: $x2) { __typename ... on Tree { entries { name type mode } } } } }';
    const res = await fetch(`${fake.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query,
        variables: {
          o0: 'o',
          n0: 'r',
          x0: `${'2'.repeat(40)}:clusters/prod/queues.yaml`,
          x1: `${'2'.repeat(40)}:vendor/quotas`,
          x2: `${'2'.repeat(40)}:vendor`,
        },
      }),
    });
    const { data } = (await res.json()) as { data: { r0: Record<string, unknown> } };
    expect(data.r0.b0).toEqual({ __typename: 'Blob', text: '../shared/queues.yaml' });
    expect(data.r0.b1).toBeNull();
    expect(data.r0.b2).toEqual({ __typename: 'Tree', entries: [{ name: 'quotas', type: 'commit', mode: 0o160000 }] });
  });

  it("lists a PR's links, submodules, kind changes and renames in its file list, as GitHub's schema describes", async () => {
    serve({
      baseFiles: { 'clusters/prod/queues.yaml': 'kind: ClusterQueue\n', 'old/name.yaml': 'kind: ConfigMap\n' },
      headFiles: { ...files, 'new/name.yaml': 'kind: ConfigMap\n' },
      renames: { 'new/name.yaml': 'old/name.yaml' },
    });
    const { body } = await get('/repos/o/r/pulls/1/files?per_page=100');
    expect(checkResponse('GET', '/repos/o/r/pulls/1/files', body)).toEqual([]);
    const listed = Object.fromEntries(
      (body as { filename: string; status: string; patch?: string; previous_filename?: string }[]).map((f) => [f.filename, f]),
    );
    expect(listed['clusters/prod/queues.yaml']).toMatchObject({ status: 'changed' });
    expect(listed['vendor/quotas']).toMatchObject({ status: 'added', sha: SUB, patch: `@@ -0,0 +1 @@\n+Subproject commit ${SUB}` });
    expect(listed['clusters/prod/escape.yaml']).toMatchObject({
      status: 'added',
      patch: '@@ -0,0 +1 @@\n+../../../etc/passwd\n\\ No newline at end of file', // hostile link target: data, never read
    });
    expect(listed['new/name.yaml']).toMatchObject({ status: 'renamed', previous_filename: 'old/name.yaml' });
  });

  it("leaves out a file's patch past GitHub's limit for one file's diff", async () => {
    const big = Array.from({ length: 20_001 }, (_, i) => `line ${i}`).join('\n');
    serve({ baseFiles: {}, headFiles: { 'big.yaml': big }, headSpecial: {} });
    const { body } = await get('/repos/o/r/pulls/1/files');
    expect((body as { patch?: string }[])[0]?.patch).toBeUndefined();
  });
});
