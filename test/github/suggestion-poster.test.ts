import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syncSuggestions } from '../../src/github/publish/suggestion-poster.js';
import { SUGGESTION_MARKER } from '../../src/github/publish/suggestions.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';
import { HEAD_SHA, pullRequest } from './app-harness.js';
import { QUEUE_FILE } from './scenarios.js';

let fake: FakeGitHub;
let repo: FakeRepo;
beforeEach(async () => {
  fake = await FakeGitHub.start();
  repo = new FakeRepo(fake, pullRequest()).serve();
});
afterEach(async () => {
  await fake.close();
  expect(fake.errors).toEqual([]);
});

const state = pullRequest();
const target = { base: state.base, head: state.base, number: state.number, baseSha: state.baseSha, headSha: HEAD_SHA };
const WANTED = { path: QUEUE_FILE, line: 17, body: `${SUGGESTION_MARKER}<!-- for line 0123 -->\nuse 8` };

function copy(body = WANTED.body) {
  return repo.addReviewComment({ path: QUEUE_FILE, line: 17, body, commit_id: HEAD_SHA, user: { login: 'gpu-justify[bot]', type: 'Bot' } });
}

function sync() {
  return syncSuggestions(testOctokit(fake.url), pino({ level: 'silent' }), target, [WANTED]);
}

describe('syncSuggestions with copies left by two replicas', () => {
  it('keeps the oldest copy whatever order they are listed in', async () => {
    const oldest = copy();
    const newer = copy();
    repo.reviewComments.reverse();

    expect(await sync()).toMatchObject({ kept: 1, deleted: 1, created: 0 });
    expect(repo.reviewComments.map((c) => c.id)).toEqual([oldest.id]);
    expect(fake.calls('DELETE', /\/pulls\/comments\//).map((r) => r.path.split('/').pop())).toEqual([String(newer.id)]);
  });

  it('goes on past a copy another replica deleted first', async () => {
    copy();
    const twin = copy();
    const stale = copy(`${SUGGESTION_MARKER}<!-- for line 4567 -->\nuse 9`);
    fake.fail('DELETE', `/repos/${state.base.owner}/${state.base.repo}/pulls/comments/${twin.id}`, {
      status: 404,
      body: { message: 'Not Found' },
    });

    expect(await sync()).toMatchObject({ kept: 1, deleted: 1, writes: 2 });
    expect(repo.reviewComments.map((c) => c.id)).not.toContain(stale.id);
  });
});
