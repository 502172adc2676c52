import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeGitHub, RAW_CHUNK_BYTES, UNEXPECTED_STATUS } from './fake-github.js';
import { FakeRepo } from './fake-repo.js';
import { gitBlobSha } from './fake-repo-trees.js';
import { checkResponse, openApiToJsonSchema } from './openapi.js';

/** The fake is what every App test trusts: it must flag what GitHub would refuse. */

let fake: FakeGitHub;
beforeEach(async () => {
  fake = await FakeGitHub.start();
});
afterEach(() => fake.close());

async function send(method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('FakeGitHub', () => {
  it('holds a request until released, so a test can order two clients', async () => {
    const order: string[] = [];
    fake.on('PATCH', '/repos/:owner/:repo/check-runs/:id', (req) => (order.push(req.params.id ?? ''), { body: {} }));
    const held = fake.hold('PATCH', /\/check-runs\//, fake.answered('PATCH', /\/check-runs\//, 1));
    const first = send('PATCH', '/repos/o/r/check-runs/1', { status: 'in_progress' });
    expect((await held.arrived).params).toEqual({ owner: 'o', repo: 'r', id: '1' });
    // Only the first matching request is held; the second is answered, which releases the first.
    await send('PATCH', '/repos/o/r/check-runs/2', { status: 'in_progress' });
    expect(await first).toBe(200);
    expect(order).toEqual(['2', '1']);
    expect(fake.errors).toEqual([]);
  });

  it('answers a declared route and records it', async () => {
    fake.on('PATCH', '/repos/:owner/:repo/check-runs/:id', (req) => ({ body: { id: Number(req.params.id) } }));

    expect(await send('PATCH', '/repos/o/r/check-runs/5', { status: 'completed', conclusion: 'neutral' })).toBe(200);

    expect(fake.errors).toEqual([]);
    expect(fake.requests[0]).toMatchObject({ operation: '/repos/{owner}/{repo}/check-runs/{check_run_id}', params: { id: '5' } });
  });

  it("flags an undeclared route, an unknown operation, and a body GitHub's schema refuses", async () => {
    fake.on('PATCH', '/repos/:owner/:repo/check-runs/:id', () => ({ body: {} }));
    const tooMany = Array.from({ length: 51 }, () => ({ path: 'a', start_line: 1, end_line: 1, annotation_level: 'notice', message: 'm' }));

    expect(await send('GET', '/repos/o/r/pulls/1')).toBe(UNEXPECTED_STATUS);
    await send('PATCH', '/repos/o/r/check-runs/5', { conclusion: 'bogus', output: { title: 't', summary: 's', annotations: tooMany } });
    await send('PATCH', '/repos/o/r/check-runs/5', { output: { title: 'no summary' } });
    expect(await send('POST', '/repos/o/r/not-an-endpoint', {})).toBe(UNEXPECTED_STATUS);

    expect(fake.errors).toEqual([
      expect.stringContaining('GET /repos/o/r/pulls/1: unexpected request'),
      expect.stringMatching(/check-runs\/5 .*body\/conclusion must be equal to one of the allowed values/),
      expect.stringMatching(/check-runs\/5 .*body\/output\/annotations must NOT have more than 50 items/),
      expect.stringMatching(/check-runs\/5 .*body\/output must have required property 'summary'/),
      expect.stringContaining("POST /repos/o/r/not-an-endpoint: no such operation in GitHub's OpenAPI description"),
      expect.stringContaining('POST /repos/o/r/not-an-endpoint: unexpected request'),
    ]);
  });

  it('flags a query parameter the operation does not take', async () => {
    fake.on('GET', '/repos/:owner/:repo/pulls/:n/files', () => ({ body: [] }));

    await send('GET', '/repos/o/r/pulls/1/files?per_page=100&ref=main');

    expect(fake.errors).toEqual([expect.stringContaining('query parameter "ref" is not in the spec')]);
  });
});

describe('openApiToJsonSchema', () => {
  it('turns nullable into a null alternative, leaving a property named "nullable" alone', () => {
    expect(
      openApiToJsonSchema({
        type: 'object',
        properties: { nullable: { type: 'string', nullable: true }, n: { enum: ['a'], nullable: true } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        nullable: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        n: { anyOf: [{ enum: ['a'] }, { type: 'null' }] },
      },
    });
  });
});

describe('FakeRepo reviews', () => {
  const pr = {
    base: { owner: 'o', repo: 'r' },
    number: 1,
    baseSha: 'b'.repeat(40),
    headSha: 'c'.repeat(40),
    baseFiles: { 'q.yaml': 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n' },
    headFiles: { 'q.yaml': 'a\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n' },
  };
  const comment = (line: number) => ({ path: 'q.yaml', line, side: 'RIGHT', body: `on ${line}` });

  it('takes a review whose comments sit on the diff, and lists them once submitted', async () => {
    const repo = new FakeRepo(fake, structuredClone(pr)).serve();

    expect(
      await send('POST', '/repos/o/r/pulls/1/reviews', { commit_id: pr.headSha, event: 'COMMENT', comments: [comment(7), comment(10)] }),
    ).toBe(200);
    expect(await send('POST', '/repos/o/r/pulls/1/reviews', { commit_id: pr.headSha, comments: [comment(8)] })).toBe(200);

    expect(repo.reviews.map((r) => r.state)).toEqual(['COMMENTED', 'PENDING']);
    expect(repo.reviewComments.map((c) => c.line)).toEqual([7, 10]);
    const res = await fetch(`${fake.url}/repos/o/r/pulls/1/comments`);
    expect(((await res.json()) as { line: number }[]).map((c) => c.line)).toEqual([7, 10]);
    expect(fake.errors).toEqual([]);
  });

  it('refuses a review whole for one line off the diff, an old commit, or nothing to say; flags a bad event', async () => {
    const repo = new FakeRepo(fake, structuredClone(pr)).serve();

    expect(
      await send('POST', '/repos/o/r/pulls/1/reviews', { commit_id: pr.headSha, event: 'COMMENT', comments: [comment(10), comment(2)] }),
    ).toBe(422);
    expect(await send('POST', '/repos/o/r/pulls/1/reviews', { commit_id: pr.baseSha, event: 'COMMENT', comments: [comment(10)] })).toBe(
      422,
    );
    expect(await send('POST', '/repos/o/r/pulls/1/reviews', { commit_id: pr.headSha, event: 'COMMENT' })).toBe(422);
    expect(repo.reviews).toEqual([]);
    expect(fake.errors).toEqual([]);

    await send('POST', '/repos/o/r/pulls/1/reviews', { commit_id: pr.headSha, event: 'SHRUG', comments: [comment(10)] });
    expect(fake.errors).toEqual([expect.stringMatching(/reviews .*body\/event must be equal to one of the allowed values/)]);
  });
});

describe('FakeRepo file list', () => {
  it('gives each changed file the patch git would', async () => {
    new FakeRepo(fake, {
      base: { owner: 'o', repo: 'r' },
      number: 1,
      baseSha: 'b'.repeat(40),
      headSha: 'c'.repeat(40),
      baseFiles: { 'q.yaml': 'a\nb\nc\nd\ne\n', 'gone.yaml': 'x' },
      headFiles: { 'q.yaml': 'a\nb\nC\nd\ne\n', 'new.yaml': 'y\n' },
    }).serve();

    const res = await fetch(`${fake.url}/repos/o/r/pulls/1/files`);
    const files = (await res.json()) as { filename: string; status: string; patch?: string }[];

    expect(Object.fromEntries(files.map((f) => [f.filename, [f.status, f.patch]]))).toEqual({
      'q.yaml': ['modified', '@@ -1,5 +1,5 @@\n a\n b\n-c\n+C\n d\n e'],
      'gone.yaml': ['removed', '@@ -1 +0,0 @@\n-x\n\\ No newline at end of file'],
      'new.yaml': ['added', '@@ -0,0 +1 @@\n+y'],
    });
  });
});

describe('FakeRepo trees', () => {
  const files = {
    'README.md': '# r\n',
    'infra/gke/main.tf': 'a = 1\n',
    'infra/gke/vars.tf': 'b = 2\n',
    'infra/gke-x.tf': 'c\n',
    'k8s/app.yaml': 'kind: X\n',
  };
  const commit = 'c'.repeat(40);
  function serve(): FakeRepo {
    return new FakeRepo(fake, {
      base: { owner: 'o', repo: 'r' },
      number: 1,
      baseSha: 'b'.repeat(40),
      headSha: commit,
      baseFiles: {},
      headFiles: files,
    }).serve();
  }
  const tree = async (sha: string, query = '') => {
    const res = await fetch(`${fake.url}/repos/o/r/git/trees/${sha}${query}`);
    return {
      status: res.status,
      body: (await res.json()) as { sha: string; truncated: boolean; tree: { path: string; type: string; sha: string }[] },
    };
  };

  it("gives a commit's trees the SHAs git gives them, recursively or one at a time, as GitHub's schema describes", async () => {
    serve();
    const dir = mkdtempSync(path.join(tmpdir(), 'gj-tree-'));
    try {
      execFileSync('git', ['init', '-q', dir]);
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      execFileSync('git', ['-C', dir, 'add', '-A']);
      const root = execFileSync('git', ['-C', dir, 'write-tree']).toString().trim();
      const lsTree = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '-t', root])
        .toString()
        .trim()
        .split('\n')
        .map((line) => {
          const [meta = '', p = ''] = line.split('\t');
          const [, type, sha] = meta.split(' ');
          return { path: p, type, sha };
        });

      const whole = await tree(commit, '?recursive=1');
      expect(whole.status).toBe(200);
      expect(checkResponse('GET', `/repos/o/r/git/trees/${commit}`, whole.body)).toEqual([]);
      expect(whole.body.sha).toBe(root);
      expect(whole.body.truncated).toBe(false);
      expect(whole.body.tree.map((e) => ({ path: e.path, type: e.type, sha: e.sha }))).toEqual(lsTree);

      const gke = lsTree.find((e) => e.path === 'infra/gke');
      const one = await tree(gke?.sha ?? '');
      expect(checkResponse('GET', `/repos/o/r/git/trees/${gke?.sha}`, one.body)).toEqual([]);
      expect(one.body.tree.map((e) => e.path)).toEqual(['main.tf', 'vars.tf']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cuts a recursive answer over its limit and says so; a missing tree is a 404', async () => {
    serve().treeEntryLimit = 2;

    const cut = await tree(commit, '?recursive=1');
    expect(checkResponse('GET', `/repos/o/r/git/trees/${commit}`, cut.body)).toEqual([]);
    expect(cut.body).toMatchObject({ truncated: true, tree: [{ path: 'README.md' }, { path: 'infra' }] });
    expect((await tree(commit)).body.truncated).toBe(false);
    expect((await tree('e'.repeat(40))).status).toBe(404);
    expect(fake.errors).toEqual([]);
  });
});

describe('FakeRepo blobs', () => {
  const text = `${'é'.repeat(1024 * 1024)}\n`;
  const sha = gitBlobSha(Buffer.from(text));
  const blobUrl = `/repos/o/r/git/blobs/${sha}`;
  function serve(): void {
    new FakeRepo(fake, {
      base: { owner: 'o', repo: 'r' },
      number: 1,
      baseSha: 'b'.repeat(40),
      headSha: 'c'.repeat(40),
      baseFiles: {},
      headFiles: { 'big.txt': text },
    }).serve();
  }
  const get = (accept: string) => fetch(`${fake.url}${blobUrl}`, { headers: { accept } });

  it('serves a blob as JSON or raw by the media type asked for, counting the bytes sent', async () => {
    serve();
    await (await fetch(`${fake.url}/repos/o/r/contents/big.txt?ref=${'c'.repeat(40)}`)).arrayBuffer();

    const json = await get('application/vnd.github+json');
    const blob = (await json.json()) as { content: string; encoding: string };
    const raw = await get('application/vnd.github.raw+json');
    const rawBytes = Buffer.from(await raw.arrayBuffer());
    await (await get('application/vnd.github.v3.raw')).arrayBuffer();
    await fake.settled();

    expect(Buffer.from(blob.content, blob.encoding as BufferEncoding).toString()).toBe(text);
    expect(raw.headers.get('content-type')).toBe('application/vnd.github.raw');
    expect(rawBytes.toString()).toBe(text);
    const [, jsonCall, rawCall, v3Call] = fake.requests;
    expect(jsonCall?.bytesSent).toBe(Number(json.headers.get('content-length')));
    expect(rawCall?.bytesSent).toBe(Buffer.byteLength(text));
    expect(v3Call?.bytesSent).toBe(Buffer.byteLength(text));
    expect(fake.errors).toEqual([]);
  });

  it('stops sending a raw body its client stopped reading', async () => {
    serve();
    await (await fetch(`${fake.url}/repos/o/r/contents/big.txt?ref=${'c'.repeat(40)}`)).arrayBuffer();

    const reader = (await get('application/vnd.github.raw+json')).body?.getReader();
    await reader?.read();
    await reader?.cancel();
    await fake.settled();

    expect(fake.requests[1]?.bytesSent).toBeLessThanOrEqual(3 * RAW_CHUNK_BYTES);
    expect(fake.errors).toEqual([]);
  });

  it('flags a media type the operation does not document', async () => {
    serve();
    await (await fetch(`${fake.url}/repos/o/r/contents/big.txt?ref=${'c'.repeat(40)}`)).arrayBuffer();

    await (await get('application/vnd.github.diff')).arrayBuffer();

    expect(fake.errors).toEqual([
      expect.stringMatching(/git\/blobs\/.*accept: media type "application\/vnd\.github\.diff" is not one the operation documents \(raw\)/),
    ]);
  });
});
