import { generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { gpuJustifyApp } from '../../src/github/app/app.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { AppServer, WEBHOOK_SECRET } from '../helpers/app-server.js';
import type { AppServerOptions } from '../helpers/app-server.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { ENFORCE_POLICY, REPO_PATH, commentEvent, prEvent, pullRequest, useApp, witnessFor } from './app-harness.js';
import { QUEUE_FILE } from './scenarios.js';
import { eventually } from '../helpers/eventually.js';

const h = useApp();

/** Runs `body` against a second App server with its own options, closing it afterwards. */
async function withApp(options: AppServerOptions, body: (app: AppServer) => Promise<void>): Promise<void> {
  const app = await AppServer.start(gpuJustifyApp, h.fake.url, { witness: witnessFor(h.fake), ...options });
  try {
    await body(app);
  } finally {
    await app.close();
  }
}

const isCheckCompletion = (r: { method: string; path: string; body: unknown }) =>
  r.method === 'PATCH' && r.path.includes('/check-runs/') && (r.body as { status?: string }).status === 'completed';

const COMMENTS = `${REPO_PATH}/issues/7/comments`;

describe('concurrent deliveries', () => {
  it('for one pull request run one job at a time: a push and a re-run at once take one review, never two interleaved', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    h.fake.latencyMs = 15;

    const results = await h.app.deliverAll([
      { event: 'pull_request', payload: prEvent({ action: 'reopened' }) },
      { event: 'issue_comment', payload: commentEvent('/gpu-justify', { commentId: 77 }) },
    ]);

    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const steps = h.fake.requests.filter((r) => r.path === `${REPO_PATH}/check-runs` || isCheckCompletion(r));
    expect(steps.map((r) => (r.method === 'POST' ? 'start' : 'done'))).toEqual(['start', 'done']);
    // The re-run was seen, and answered by the review of the same head.
    expect(repo.reactions).toEqual([{ commentId: 77, content: 'eyes' }]);
    expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
  });
});

describe('GitHub faults', () => {
  it('a 502 while posting the comment leaves the check as the review concluded it', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('POST', COMMENTS, { status: 502, body: { message: 'Server Error' } }, 10);

    const res = await h.app.deliver('pull_request', prEvent());

    expect(res.status).toBe(200);
    // A computed failure is never turned into a softer conclusion by a write that failed after it.
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(repo.checkRuns[0]?.output.title).toContain('not justified');
    expect(repo.checkRuns[0]?.history.filter((b) => b.conclusion !== undefined)).toHaveLength(1);
  });

  it("with Probot's production client a 502 is retried, and a secondary rate limit is waited out", async () => {
    await withApp({ production: true }, async (app) => {
      const repo = new FakeRepo(h.fake, pullRequest()).serve().withoutGraphql();
      const queueRead = `${REPO_PATH}/contents/${QUEUE_FILE}`;
      h.fake.fail('GET', queueRead, { status: 502, body: { message: 'Server Error' } });
      h.fake.fail('POST', COMMENTS, {
        status: 403,
        headers: { 'retry-after': '1' },
        body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      });

      const res = await app.deliver('pull_request', prEvent());
      // Waiting out the limit can outlast the webhook's answer (202: still processing).
      expect([200, 202]).toContain(res.status);
      await eventually(() => repo.comments.length > 0, { what: 'the comment written', timeoutMs: 30_000 });

      // The retry plugin asked again after the 502; the review read the file and got on.
      expect(h.fake.calls('GET', queueRead).length).toBeGreaterThanOrEqual(3);
      // A secondary rate limit is not hammered: asked again once, after the wait GitHub named.
      const posts = h.fake.calls('POST', COMMENTS);
      expect(posts).toHaveLength(2);
      expect(repo.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toHaveLength(1);
      expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    });
  });
});

describe("rate limits in production's client", () => {
  it('a spent primary limit on a write is not waited out past the budget, nor asked again inside the throttle', async () => {
    process.env['GPU_JUSTIFY_WRITE_BUDGET_SECONDS'] = '2';
    try {
      await withApp({ production: true }, async (app) => {
        const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
        const reset = String(Math.ceil(Date.now() / 1000) + 600);
        h.fake.fail(
          'POST',
          COMMENTS,
          {
            status: 403,
            headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
            body: { message: 'API rate limit exceeded for installation ID 4242.' },
          },
          5,
        );
        const started = Date.now();

        const res = await app.deliver('pull_request', prEvent());

        expect(res.status).toBe(200);
        // Probot's own handlers would have asked again twice, each after the ten-minute reset.
        expect(Date.now() - started).toBeLessThan(60_000);
        expect(h.fake.calls('POST', COMMENTS)).toHaveLength(1);
        // The review's verdict stands on the check; it says the comment could not be posted.
        expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
        expect(repo.checkRuns[0]?.output.summary).toContain('could not be posted');
      });
    } finally {
      delete process.env['GPU_JUSTIFY_WRITE_BUDGET_SECONDS'];
    }
  });
});

describe('secrets', () => {
  it('never reach a request body, a comment or a log line', async () => {
    const privateKey = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey;
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    await withApp({ log: pino({ level: 'trace' }, sink), privateKey }, async (app) => {
      const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve().withoutGraphql();
      repo.roles.maintainer = 'maintain';
      await app.deliver('pull_request', prEvent());
      await app.deliver('issue_comment', commentEvent('/gpu-justify override audited', { login: 'maintainer' }));
      await app.deliver('issue_comment', commentEvent('/gpu-justify explain'));
      h.fake.fail('GET', /\/contents\//, { status: 502, body: { message: 'Server Error' } }, 50);
      await app.deliver('pull_request', prEvent({ action: 'reopened' }));
      // A badly signed delivery is logged too; it must not echo the secret.
      await app.deliver('pull_request', prEvent(), { secret: 'wrong' });
      expect(repo.checkRuns.at(-1)?.output.title).toContain('could not run');
    });

    const keyBody = privateKey.split('\n').filter((l) => !l.startsWith('-----') && l.length > 20);
    const secrets = [WEBHOOK_SECRET, 'ghs_fake', ...keyBody.slice(0, 3)];
    const sent = h.fake.requests.map((r) => `${r.path}?${r.query.toString()} ${JSON.stringify(r.body ?? '')}`);
    expect(lines.length).toBeGreaterThan(5);
    expect(sent.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect(sent.filter((s) => s.includes(secret))).toEqual([]);
      expect(lines.filter((l) => l.includes(secret))).toEqual([]);
    }
  });
});
