import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gpuJustifyApp } from '../../src/github/app/app.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { VERDICT_TITLE } from '../../src/report/verdict-text.js';
import { AppServer } from '../helpers/app-server.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { PullRequestState } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO, pullRequestPayload } from '../helpers/payloads.js';
import { CATALOG, MALFORMED_QUEUE, QUEUE_FILE, README, clusterQueue } from './scenarios.js';

const BASE_SHA = 'b'.repeat(40);
const HEAD_SHA = 'c'.repeat(40);
const NEWER_SHA = 'd'.repeat(40);
const INSTALLATION = 4242;
const NUMBER = 7;
const CONTENTS = /^\/repos\/[^/]+\/[^/]+\/contents\//;

let fake: FakeGitHub;
let app: AppServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(() => process.off('unhandledRejection', onUnhandled));

beforeEach(async () => {
  unhandled.length = 0;
  fake = await FakeGitHub.start();
  app = await AppServer.start(gpuJustifyApp, fake.url);
});

afterEach(async () => {
  await app.close();
  await fake.close();
  expect(fake.errors).toEqual([]);
  expect(unhandled).toEqual([]);
});

function pullRequest(over: Partial<PullRequestState> = {}): PullRequestState {
  return {
    base: EXAMPLE_REPO,
    number: NUMBER,
    baseSha: BASE_SHA,
    headSha: HEAD_SHA,
    baseFiles: { [QUEUE_FILE]: clusterQueue(6), 'gpu-workloads.yaml': CATALOG, 'README.md': README },
    headFiles: { [QUEUE_FILE]: clusterQueue(12), 'gpu-workloads.yaml': CATALOG, 'README.md': README },
    ...over,
  };
}

function opened(over: { action?: 'opened' | 'synchronize' | 'reopened'; fork?: { owner: string; repo: string } } = {}) {
  return pullRequestPayload({
    action: over.action ?? 'opened',
    installationId: INSTALLATION,
    number: NUMBER,
    baseSha: BASE_SHA,
    headSha: HEAD_SHA,
    ...(over.fork ? { fork: over.fork } : {}),
  });
}

const commentWrites = () => [...fake.calls('POST', /\/issues\/\d+\/comments$/), ...fake.calls('PATCH', /\/issues\/comments\/\d+$/)];

describe('pull_request webhooks', () => {
  it('raising a queue the catalog shows can be staggered: check in progress, then concluded, one comment', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();

    const res = await app.deliver('pull_request', opened());

    expect(res.status).toBe(200);
    expect(fake.calls('POST', `/app/installations/${INSTALLATION}/access_tokens`)).toHaveLength(1);
    const [run, ...others] = repo.checkRuns;
    expect(others).toEqual([]);
    expect(run?.history[0]).toMatchObject({ name: 'gpu-justify', head_sha: HEAD_SHA, status: 'in_progress' });
    // The check is in progress before anything is read.
    const order = fake.requests.map((r) => `${r.method} ${r.path}`);
    const created = order.indexOf(`POST /repos/Codertocat/Hello-World/check-runs`);
    expect(created).toBeGreaterThanOrEqual(0);
    expect(created).toBeLessThan(order.findIndex((o) => CONTENTS.test(o.slice(4)) || o === 'POST /graphql'));
    // Four 2-GPU runs fit in the six GPUs there already are: advise mode makes it neutral.
    expect(run).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(run?.output.title).toContain(VERDICT_TITLE['not-justified']);
    expect(run?.output.annotations).toContainEqual(expect.objectContaining({ path: QUEUE_FILE, annotation_level: 'warning' }));

    expect(repo.comments).toHaveLength(1);
    const body = repo.comments[0]?.body ?? '';
    expect(body).toContain(COMMENT_MARKER);
    expect(body).toContain(VERDICT_TITLE['not-justified']);
    expect(body).toContain(`https://github.com/Codertocat/Hello-World/blob/${HEAD_SHA}/clusters/prod/queues.yaml#L`);

    // Each side was read at its own commit, each file once.
    // Read through GraphQL: each blob an `object(expression: "<commit>:<path>")` of one query.
    const reads = fake
      .calls('POST', '/graphql')
      .flatMap((r) => Object.values((r.body as { variables: Record<string, string> }).variables))
      .filter((v) => v.includes(':'));
    expect(fake.calls('GET', CONTENTS)).toEqual([]);
    expect(reads).toEqual(
      expect.arrayContaining([`${BASE_SHA}:${QUEUE_FILE}`, `${HEAD_SHA}:${QUEUE_FILE}`, `${HEAD_SHA}:gpu-workloads.yaml`]),
    );
    expect(new Set(reads).size).toBe(reads.length);
  });

  it('a redelivered webhook with the same result writes no comment', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    await app.deliver('pull_request', opened());
    const first = repo.comments.map((c) => ({ ...c }));
    const writesAfterFirst = commentWrites().length;

    const res = await app.deliver('pull_request', opened({ action: 'reopened' }));

    expect(res.status).toBe(200);
    expect(writesAfterFirst).toBe(1);
    expect(commentWrites()).toHaveLength(1);
    expect(repo.comments).toEqual(first);
    expect(repo.checkRuns.map((r) => r.conclusion)).toEqual(['neutral', 'neutral']);
  });

  it('a comment left for an older result is edited in place', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    repo.addComment(`quoting ${COMMENT_MARKER}`, 'User');
    const old = repo.addComment(`${COMMENT_MARKER}\nAn older review`);

    await app.deliver('pull_request', opened());

    expect(fake.calls('POST', /\/issues\/\d+\/comments$/)).toEqual([]);
    expect(fake.calls('PATCH', /\/issues\/comments\/\d+$/).map((r) => r.path)).toEqual([
      `/repos/Codertocat/Hello-World/issues/comments/${old.id}`,
    ]);
    expect(repo.comments[0]?.body).toBe(`quoting ${COMMENT_MARKER}`);
    expect(repo.comments[1]?.body).toContain(VERDICT_TITLE['not-justified']);
  });

  it('a pull request with no GPU change concludes the check and leaves no comment', async () => {
    const state = pullRequest();
    const repo = new FakeRepo(fake, {
      ...state,
      headFiles: { ...state.baseFiles, 'README.md': `${README}More words.\n` },
    }).serve();

    await app.deliver('pull_request', opened());

    expect(repo.checkRuns).toHaveLength(1);
    expect(['success', 'skipped']).toContain(repo.checkRuns[0]?.conclusion);
    expect(repo.comments).toEqual([]);
    expect(commentWrites()).toEqual([]);
  });

  it('a malformed ClusterQueue still concludes the check, and the comment names file and line', async () => {
    const repo = new FakeRepo(fake, pullRequest({ headFiles: { ...pullRequest().headFiles, [QUEUE_FILE]: MALFORMED_QUEUE } })).serve();

    await app.deliver('pull_request', opened());

    const run = repo.checkRuns[0];
    expect(run?.status).toBe('completed');
    expect(run?.conclusion).not.toBeNull();
    const annotation = run?.output.annotations.find(
      (a): a is { path: string; start_line: number } => (a as { path?: string }).path === QUEUE_FILE,
    );
    expect(annotation?.start_line).toBeGreaterThanOrEqual(7);
    expect(repo.comments).toHaveLength(1);
    expect(repo.comments[0]?.body).toContain(`${QUEUE_FILE}:${annotation?.start_line}`);
  });

  it('GitHub failing on a contents read is tried again with backoff, then concludes the check as "could not run", without crashing', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve().withoutGraphql();
    fake.on('GET', '/repos/:owner/:repo/contents/*path', (req) =>
      req.params.path === QUEUE_FILE && req.query.get('ref') === HEAD_SHA
        ? { status: 502, body: { message: 'Server Error' } }
        : { status: 404, body: { message: 'Not Found' } },
    );

    const res = await app.deliver('pull_request', opened());

    expect(res.status).toBe(200);
    // Every attempt of the job read the file (the production client retries each read too);
    // the last one concluded the one check run the attempts shared.
    const reads = fake.calls('GET', CONTENTS).filter((r) => r.path.endsWith(QUEUE_FILE) && r.query.get('ref') === HEAD_SHA);
    expect(reads).toHaveLength(5);
    expect(repo.checkRuns).toHaveLength(1);
    const run = repo.checkRuns[0];
    expect(run).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(run?.output.title).toContain('could not run');
    expect(run?.output.summary).toContain(`GitHub API refused: 502 on GET /repos/Codertocat/Hello-World/contents/${QUEUE_FILE}`);
    expect(run?.output.summary).not.toContain('ghs_');
    expect(repo.comments).toEqual([]);
  });

  it('a result for a head that has since moved is not posted', async () => {
    const repo = new FakeRepo(fake, pullRequest());
    // The head moves once the job has read the pull request: while the review runs.
    const on = fake.on.bind(fake);
    fake.on = (method, pattern, handler) =>
      on(
        method,
        pattern,
        method === 'GET' && pattern === `/repos/Codertocat/Hello-World/pulls/${NUMBER}`
          ? async (req) => {
              const reply = await handler(req);
              repo.currentHeadSha = NEWER_SHA;
              return reply;
            }
          : handler,
      );
    repo.serve();
    const old = repo.addComment(`${COMMENT_MARKER}\nThe review of the newer head`);

    await app.deliver('pull_request', opened());

    // Read when the job starts, and again before the comment would be written.
    expect(fake.calls('GET', `/repos/Codertocat/Hello-World/pulls/${NUMBER}`)).toHaveLength(2);
    expect(commentWrites()).toEqual([]);
    expect(repo.comments).toEqual([old]);
    // The check belongs to the commit it reviewed and still concludes.
    expect(repo.checkRuns[0]).toMatchObject({ head_sha: HEAD_SHA, status: 'completed', conclusion: 'neutral' });
  });

  it("reads a fork pull request's head from the fork", async () => {
    const fork = { owner: 'forker', repo: 'Hello-World' };
    const repo = new FakeRepo(fake, pullRequest({ head: fork })).serve().withoutGraphql();

    await app.deliver('pull_request', opened({ fork }));

    const heads = fake.calls('GET', CONTENTS).filter((r) => r.query.get('ref') === HEAD_SHA);
    expect(heads.length).toBeGreaterThan(0);
    expect(heads.every((r) => r.path.startsWith('/repos/forker/Hello-World/'))).toBe(true);
    // Files, and the names in the head's tree: no archive or clone of the fork's code is ever asked for.
    expect(fake.requests.filter((r) => /\/(tarball|zipball|git\/refs)\b/.test(r.path))).toEqual([]);
    // The head is listed from the fork, and nothing else is: the policy's paths at the base are
    // asked of the contents API (without GraphQL), in the base repository.
    expect(fake.calls('GET', /\/git\/trees\//).map((r) => r.path)).toEqual([`/repos/forker/Hello-World/git/trees/${HEAD_SHA}`]);
    // The first path, then its directory, whose names answer the second path with no call.
    const policyReads = fake.calls('GET', CONTENTS).filter((r) => r.query.get('ref') === BASE_SHA && r.path.includes('/contents/.github'));
    expect(policyReads.map((r) => r.path)).toEqual([
      '/repos/Codertocat/Hello-World/contents/.github/gpu-justify.yml',
      '/repos/Codertocat/Hello-World/contents/.github',
    ]);
    expect(repo.checkRuns[0]?.conclusion).toBe('neutral');
    expect(repo.comments[0]?.body).toContain(`https://github.com/forker/Hello-World/blob/${HEAD_SHA}/`);
  });

  it('when the check run cannot be created, nothing is read and the job fails without retrying', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    fake.on('POST', '/repos/Codertocat/Hello-World/check-runs', () => ({
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    }));

    const res = await app.deliver('pull_request', opened());

    // The webhook is answered once queued; a permission GitHub refuses is not worth another attempt.
    expect(res.status).toBe(200);
    expect(fake.calls('GET', CONTENTS)).toEqual([]);
    expect(repo.comments).toEqual([]);
  });

  it('rejects a webhook whose signature does not match, calling GitHub for nothing', async () => {
    new FakeRepo(fake, pullRequest()).serve();

    const res = await app.deliver('pull_request', opened(), { secret: 'not-the-secret' });

    expect(res.status).toBe(400);
    expect(fake.requests).toEqual([]);
  });
});
