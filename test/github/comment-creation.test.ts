import { ProbotOctokit } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertComment } from '../../src/github/publish/comment-poster.js';
import type { UpsertCommentOptions } from '../../src/github/publish/comment-poster.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';

/**
 * Our comment is created once under at-least-once delivery: two reviews of one pull request
 * running at the same moment share a creation claim, and a POST whose answer was lost is not
 * sent again when GitHub created the comment after all.
 */

const REPO = { owner: 'acme', repo: 'infra' };
const MARKER = '<!-- test:marker -->';
const LIST = '/repos/acme/infra/issues/9/comments';
const ONE = /^\/repos\/acme\/infra\/issues\/comments\/\d+$/;

let fake: FakeGitHub;
let repo: FakeRepo;
beforeEach(async () => {
  fake = await FakeGitHub.start();
  repo = new FakeRepo(fake, {
    base: REPO,
    number: 9,
    baseSha: '1'.repeat(40),
    headSha: '2'.repeat(40),
    baseFiles: {},
    headFiles: {},
  }).serve();
});
afterEach(async () => {
  await fake.close();
  expect(fake.errors).toEqual([]);
});

type Client = ReturnType<typeof testOctokit>;

function post(octokit: Client, body: string, over: Partial<UpsertCommentOptions> = {}) {
  return upsertComment(octokit, {
    repo: REPO,
    issueNumber: 9,
    marker: MARKER,
    author: 'gpu-justify[bot]',
    body,
    createIfAbsent: true,
    existing: null,
    ...over,
  });
}

/** A claim shared by the reviews given it, as the work store's lease is: the first takes it. */
function sharedClaim(): () => Promise<boolean> {
  let taken = false;
  return () => {
    const won = !taken;
    taken = true;
    return Promise.resolve(won);
  };
}

/**
 * A client as production runs it (Octokit's retries on), whose first comment POST is answered 502:
 * after GitHub handled it (`landed`), or without it reaching GitHub.
 */
function lossyClient(landed: boolean): Client {
  let lost = false;
  const fetchOnce: typeof fetch = async (input, init) => {
    const creating = init?.method === 'POST' && String(input instanceof Request ? input.url : input).endsWith(LIST);
    if (creating && !lost) {
      lost = true;
      if (landed) await fetch(input, init);
      return new Response(JSON.stringify({ message: 'Bad Gateway' }), { status: 502, headers: { 'content-type': 'application/json' } });
    }
    return fetch(input, init);
  };
  return new ProbotOctokit({
    auth: 'ghs_test',
    baseUrl: fake.url,
    request: { fetch: fetchOnce, retryAfter: 0 },
    throttle: { enabled: false },
  });
}

describe('creating our comment once', () => {
  it('two reviews at once: the one that lost the claim writes to the winner’s comment, and nothing is settled', async () => {
    const claim = sharedClaim();
    // Both looked before either created: the second learns of the first only through the claim.
    const outcomes = await Promise.all([
      post(testOctokit(fake.url), `${MARKER}\nfrom a`, { claimCreation: claim }),
      post(testOctokit(fake.url), `${MARKER}\nfrom b`, { claimCreation: claim }),
    ]);
    expect([...outcomes].sort()).toEqual(['created', 'merged']);
    expect(fake.calls('POST', LIST)).toHaveLength(1);
    expect(fake.calls('DELETE', ONE)).toEqual([]);
    expect(repo.comments).toHaveLength(1);
  });

  it('the one that lost the claim keeps the winner’s text when it is no longer current', async () => {
    const claim = sharedClaim();
    expect(await post(testOctokit(fake.url), `${MARKER}\nnewer head`, { claimCreation: claim })).toBe('created');
    const stale = { claimCreation: claim, stillCurrent: () => Promise.resolve(false) };
    expect(await post(testOctokit(fake.url), `${MARKER}\nolder head`, stale)).toBe('merged');
    expect(repo.comments.map((c) => c.body)).toEqual([`${MARKER}\nnewer head`]);
    expect(fake.calls('PATCH', ONE)).toEqual([]);
  });

  it('a claim that cannot be asked does not stop the comment: created, and settled as before', async () => {
    const warned: string[] = [];
    const log = { warn: (_obj: object, msg: string) => void warned.push(msg) };
    const down = () => Promise.reject(new Error('redis down'));
    expect(
      await post(testOctokit(fake.url), `${MARKER}\nbody`, { claimCreation: down, log: log as UpsertCommentOptions['log'] & object }),
    ).toBe('created');
    expect(repo.comments).toHaveLength(1);
    expect(warned).toEqual(['creation of our comment not claimed; creating it and settling duplicates after']);
  });

  it('a POST answered 502 after GitHub created the comment is not sent again', async () => {
    expect(await post(lossyClient(true), `${MARKER}\nbody`)).toBe('created');
    expect(fake.calls('POST', LIST)).toHaveLength(1);
    expect(repo.comments.map((c) => c.body)).toEqual([`${MARKER}\nbody`]);
    expect(fake.calls('DELETE', ONE)).toEqual([]);
  });

  it('a POST answered 502 before it reached GitHub is sent again, once', async () => {
    expect(await post(lossyClient(false), `${MARKER}\nbody`)).toBe('created');
    expect(fake.calls('POST', LIST)).toHaveLength(1);
    expect(repo.comments.map((c) => c.body)).toEqual([`${MARKER}\nbody`]);
  });

  it('a 4xx is not looked up or retried: it fails the write', async () => {
    fake.fail('POST', LIST, { status: 422, body: { message: 'Validation Failed' } });
    await expect(post(testOctokit(fake.url), `${MARKER}\nbody`)).rejects.toMatchObject({ status: 422 });
    expect(fake.calls('POST', LIST)).toHaveLength(1);
    expect(fake.calls('GET', LIST)).toEqual([]);
    expect(repo.comments).toEqual([]);
  });
});
