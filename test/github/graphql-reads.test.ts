import { describe, expect, it } from 'vitest';
import { bigPr, gpuPr } from '../../bench/app/scenarios.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { gitBlobSha } from '../helpers/fake-repo-trees.js';
import type { FakeRequest } from '../helpers/fake-github.js';
import { GRAPHQL_TEXT_LIMIT } from '../helpers/fake-graphql.js';
import { pullRequestPayload } from '../helpers/payloads.js';
import { INSTALLATION, REPO_PATH, prEvent, pullRequest, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/** Reads batched through GraphQL, through the App over HTTP, and REST where GraphQL cannot serve. */

const h = useApp();
/** Calls of one review: the installation token and the App's own login (asked once per process) aside. */
const reviewCalls = (): FakeRequest[] => h.fake.requests.filter((r) => !r.path.endsWith('/access_tokens') && r.path !== '/app');
const graphql = (): FakeRequest[] => h.fake.calls('POST', '/graphql');
const contents = (): FakeRequest[] => h.fake.calls('GET', /\/contents\//);
const shown = (repo: FakeRepo): string => `${repo.checkRuns.at(-1)?.output.summary ?? ''}\n${repo.comments.at(-1)?.body ?? ''}`;

function deliver(s: { pr: { number: number; baseSha: string; headSha: string } }) {
  return h.app.deliver(
    'pull_request',
    pullRequestPayload({
      action: 'opened',
      installationId: INSTALLATION,
      number: s.pr.number,
      baseSha: s.pr.baseSha,
      headSha: s.pr.headSha,
    }),
  );
}

describe('reads through GraphQL', () => {
  it('a one-queue GPU PR reads the policy, the catalog and both sides of the queue in one query', async () => {
    const s = gpuPr(11);
    const repo = new FakeRepo(h.fake, s.pr).serve();

    expect((await deliver(s)).status).toBe(200);

    expect(graphql()).toHaveLength(1);
    expect(contents()).toEqual([]);
    expect(h.fake.calls('GET', /\/git\/blobs\//)).toEqual([]);
    expect(shown(repo)).toMatch(/6 → 12/);
    // Before: 19 calls, 7 of them file reads.
    expect(reviewCalls().length).toBeLessThanOrEqual(13);
  });

  it('a 250-file PR makes at most 15 calls in all, its reads in three queries: sizes, then text', async () => {
    const s = bigPr(12);
    const repo = new FakeRepo(h.fake, s.pr).serve();

    expect((await deliver(s)).status).toBe(200);

    // 250 blobs whole could answer 128 MB, parsed on the App's thread: their sizes are asked first.
    expect(graphql()).toHaveLength(3);
    expect(contents()).toEqual([]);
    expect(shown(repo)).toMatch(/6 → 12/);
    // Before: 273 calls.
    expect(reviewCalls().length).toBeLessThanOrEqual(15);
  });

  it('a blob GraphQL truncates is read whole through the REST blob API', async () => {
    // Over GraphQL's 512,000 bytes, under the review's 1 MiB limit: read, not refused.
    const long = `${clusterQueue(12)}${'# padding\n'.repeat(GRAPHQL_TEXT_LIMIT / 10 + 1)}`;
    const repo = new FakeRepo(h.fake, pullRequest({ headFiles: { ...pullRequest().headFiles, [QUEUE_FILE]: long } })).serve();

    expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

    expect(h.fake.calls('GET', `${REPO_PATH}/git/blobs/${gitBlobSha(Buffer.from(long))}`)).toHaveLength(1);
    expect(contents()).toEqual([]);
    expect(shown(repo)).toMatch(/6 → 12/);
  });

  it.each([
    ['a 502', { status: 502, body: { message: 'Bad Gateway' } }],
    ['an errors array', { status: 200, body: { errors: [{ message: 'Something went wrong while executing your query.' }] } }],
    ['a 404 (a server without GraphQL)', { status: 404, body: { message: 'Not Found' } }],
    // Not waited out as a write would be: REST has a rate limit of its own.
    [
      'a secondary rate limit',
      { status: 403, body: { message: 'You have exceeded a secondary rate limit' }, headers: { 'retry-after': '60' } },
    ],
  ])('GraphQL answering %s: the review reads through REST from then on, and says the same', async (_what, reply) => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    h.fake.fail('POST', '/graphql', reply, 100);

    expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

    expect(graphql()).toHaveLength(1);
    const paths = contents().map((r) => `${r.path.replace(/^.*\/contents\//, '')}@${r.query.get('ref')?.slice(0, 1) ?? 'default'}`);
    expect(paths).toEqual(expect.arrayContaining([`${QUEUE_FILE}@c`, `${QUEUE_FILE}@b`, 'gpu-workloads.yaml@b']));
    expect(h.fake.requests.indexOf(graphql()[0] as FakeRequest)).toBeLessThan(h.fake.requests.indexOf(contents()[0] as FakeRequest));
    expect(repo.checkRuns.at(-1)?.status).toBe('completed');
    expect(shown(repo)).toMatch(/6 → 12/);
  });

  it('after a GraphQL failure the next review of the same GitHub goes straight to REST', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    h.fake.fail('POST', '/graphql', { status: 502, body: { message: 'Bad Gateway' } }, 1);
    await h.app.deliver('pull_request', prEvent());
    expect(graphql()).toHaveLength(1);

    // The endpoint would answer now, but the next review does not ask it (and so waits no retries).
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize' }));
    expect(graphql()).toHaveLength(1);
    expect(repo.checkRuns.at(-1)?.status).toBe('completed');
    expect(shown(repo)).toMatch(/6 → 12/);
  });

  it('an answer of the wrong shape for a file is an error naming it, never "no file"', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    h.fake.fail('POST', '/graphql', { status: 200, body: { data: { r0: { b0: { __typename: 'Blob', oid: 42 } } } } });

    expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

    const check = repo.checkRuns.at(-1);
    expect(check?.status).toBe('completed');
    expect(check?.conclusion).not.toBe('success');
    expect(shown(repo)).not.toMatch(/6 → 0|No GPU capacity change/i);
  });
});
