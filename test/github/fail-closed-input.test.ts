import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import type { FakeRequest } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { gitBlobSha } from '../helpers/fake-repo-trees.js';
import { BASE_SHA, ENFORCE_POLICY, HEAD_SHA, REPO_PATH, prEvent, pullRequest, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

const h = useApp();

const ourComment = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('numbers are sane, through the App', () => {
  it.each(['1e400', 'Infinity', '-4', '9999999999', '.inf'])(
    'a quota of %s is an error at its line, never a verdict on it',
    async (value) => {
      const pr = pullRequest({}, ENFORCE_POLICY);
      pr.headFiles[QUEUE_FILE] = clusterQueue(value);
      const repo = new FakeRepo(h.fake, pr).serve();

      expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

      const check = repo.checkRuns[0];
      expect(check?.status).toBe('completed');
      expect(check?.conclusion).not.toBe('success');
      const line =
        clusterQueue(value)
          .split('\n')
          .findIndex((l) => l.includes(`nominalQuota: ${value}`)) + 1;
      const shown = `${check?.output.title ?? ''}\n${check?.output.summary ?? ''}\n${check?.output.text ?? ''}\n${ourComment(repo)}`;
      expect(shown).toContain(`${QUEUE_FILE}:${line}`);
      expect(shown).not.toMatch(/[+-]?Infinity GPU|NaN GPU|9,999,999,999 GPU/);
      expect(shown).toMatch(/insufficient evidence|not enough evidence|could not be read|not a real count|would not apply/i);
    },
  );
});

/** The contents API's answer for a file, as GitHub gives it. */
function fileAnswer(path: string, text: string): Record<string, unknown> {
  const bytes = Buffer.from(text, 'utf8');
  return {
    type: 'file',
    name: path.split('/').pop(),
    path,
    sha: gitBlobSha(bytes),
    size: bytes.length,
    encoding: 'base64',
    content: bytes.toString('base64'),
  };
}

/** The contents API's answer for a symbolic link it does not resolve itself (a target it cannot serve as a file). */
function linkAnswer(path: string, target: string): Record<string, unknown> {
  return { type: 'symlink', name: path.split('/').pop(), path, sha: gitBlobSha(Buffer.from(target)), size: target.length, target };
}

const QUEUE_CONTENTS = `${REPO_PATH}/contents/${QUEUE_FILE}`;

/** The queue file answered by `answer` at the head commit, and as the base has it at the base commit. */
function queueFileAt(head: (req: FakeRequest) => Record<string, unknown>): void {
  h.fake.on('GET', QUEUE_CONTENTS, (req) => {
    const ref = req.query.get('ref');
    if (ref === BASE_SHA) return { body: fileAnswer(QUEUE_FILE, clusterQueue(6)) };
    if (ref === HEAD_SHA) return { body: head(req) };
    return { status: 404, body: { message: 'Not Found' } };
  });
}

function shownOf(repo: FakeRepo): string {
  const check = repo.checkRuns.at(-1);
  return `${check?.output.title ?? ''}\n${check?.output.summary ?? ''}\n${check?.output.text ?? ''}\n${ourComment(repo)}`;
}

describe('symbolic links, through the App', () => {
  it('a capacity file replaced by a link inside the repository is read as its target', async () => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    // The file list shows the link changed; what it leads to declares 12 GPUs.
    pr.headFiles[QUEUE_FILE] = '../shared/queues.yaml';
    pr.headFiles['clusters/shared/queues.yaml'] = clusterQueue(12);
    queueFileAt(() => linkAnswer(QUEUE_FILE, '../shared/queues.yaml'));
    const repo = new FakeRepo(h.fake, pr).serve();

    expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

    const shown = shownOf(repo);
    expect(shown).toMatch(/6 → 12/);
    expect(shown).not.toMatch(/6 → 0/);
  });

  it.each([
    ['outside the repository', '../../../../etc/gpu.yaml'], // hostile link target: data, never read
    ['to itself', 'queues.yaml'],
  ])('a capacity file replaced by a link %s is unreadable, never the queue removed', async (_what, target) => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    pr.headFiles[QUEUE_FILE] = target;
    queueFileAt(() => linkAnswer(QUEUE_FILE, target));
    const repo = new FakeRepo(h.fake, pr).serve();

    expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

    const check = repo.checkRuns.at(-1);
    expect(check?.status).toBe('completed');
    expect(check?.conclusion).not.toBe('success');
    const shown = shownOf(repo);
    expect(shown).toContain(QUEUE_FILE);
    expect(shown).toMatch(/symbolic link/);
    expect(shown).not.toMatch(/6 → 0/);
  });
});

describe('odd answers from GitHub, through the App', () => {
  it.each([
    [
      'a string where JSON was expected',
      { status: 200, raw: Buffer.from('<html>upstream error</html>'), headers: { 'content-type': 'text/plain' } },
    ],
    [
      'JSON the parser cannot take',
      { status: 200, raw: Buffer.from('{"type":"file","sha":'), headers: { 'content-type': 'application/json' } },
    ],
    ['a missing field', { status: 200, body: { type: 'file', path: QUEUE_FILE, size: 10, encoding: 'base64', content: '' } }],
    [
      'a field of the wrong type',
      { status: 200, body: { type: 'file', path: QUEUE_FILE, sha: 42, size: '10', encoding: 'base64', content: '' } },
    ],
  ])('contents answered with %s is an error naming the file, never a crash or "no file"', async (_what, reply) => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, pr).serve();
    h.fake.fail('GET', QUEUE_CONTENTS, reply, 2);

    expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

    const check = repo.checkRuns.at(-1);
    expect(check?.status).toBe('completed');
    expect(check?.conclusion).not.toBe('success');
    const shown = shownOf(repo);
    expect(shown).toContain(QUEUE_FILE);
    expect(shown).not.toMatch(/6 → 0|No GPU capacity change/i);
  });

  it('the pull request\'s file list with wrong types is an error naming it, never "no GPU change"', async () => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, pr).serve();
    h.fake.fail('GET', `${REPO_PATH}/pulls/7/files`, { status: 200, body: [{ filename: 42, status: 'modified' }] });

    expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

    const check = repo.checkRuns.at(-1);
    expect(check?.status).toBe('completed');
    expect(check?.conclusion).not.toBe('success');
    // Escaped as every reason is (a `#` before digits would link): the reader sees "#7".
    expect(shownOf(repo)).toContain('file list of pull request \\#&#8203;7');
  });

  it('a catalog over the size limit is refused by its size before any download', async () => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    const huge = `${pr.headFiles['gpu-workloads.yaml'] ?? ''}${'# padding\n'.repeat(120_000)}`;
    pr.baseFiles['gpu-workloads.yaml'] = huge;
    pr.headFiles['gpu-workloads.yaml'] = huge;
    const repo = new FakeRepo(h.fake, pr).serve();

    expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

    const catalogSha = gitBlobSha(Buffer.from(huge, 'utf8'));
    expect(h.fake.requests.filter((r) => r.path.includes(`/git/blobs/${catalogSha}`))).toEqual([]);
    const check = repo.checkRuns.at(-1);
    expect(check?.conclusion).not.toBe('success');
    expect(shownOf(repo)).toMatch(
      /gpu-workloads\.yaml[^\n]*over the 1,048,576 bytes gpu-justify reads|over the 1,048,576 bytes gpu-justify reads[^\n]*/,
    );
  });
});
