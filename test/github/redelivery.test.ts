import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/github/app/work/memory-store.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { REPO_PATH, commentEvent, prEvent, pullRequest, useApp } from './app-harness.js';

const h = useApp();

describe('a redelivered webhook', () => {
  it('starts no second check run for the same delivery', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    await h.app.deliver('pull_request', prEvent(), { delivery: 'delivery-1' });
    await h.app.deliver('pull_request', prEvent(), { delivery: 'delivery-1' });
    expect(repo.checkRuns).toHaveLength(1);
    // A new delivery for the same head is a new request, reviewed again (a reopening); a push for
    // it is not, since GitHub sends one push per head (bursts.test.ts).
    await h.app.deliver('pull_request', prEvent({ action: 'reopened' }), { delivery: 'delivery-2' });
    expect(repo.checkRuns).toHaveLength(2);
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize' }), { delivery: 'delivery-4' });
    expect(repo.checkRuns).toHaveLength(2);
  });

  it('answers a command once', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify help'), { delivery: 'command-1' });
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify help'), { delivery: 'command-1' });
    expect(repo.comments).toHaveLength(1);
    expect(h.fake.calls('POST', /\/reactions$/)).toHaveLength(1);
  });

  it('is reviewed in the end when GitHub fails the first attempts: the job runs again, nobody redelivers', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // Refused on every try the first attempt makes: created in progress, then on concluding, twice.
    h.fake.fail('POST', `${REPO_PATH}/check-runs`, { status: 500, body: { message: 'Server Error' } }, 3);
    const first = await h.app.deliver('pull_request', prEvent(), { delivery: 'delivery-3' });
    expect(first.status).toBe(200);
    expect(repo.checkRuns).toEqual([expect.objectContaining({ status: 'completed', conclusion: 'neutral' })]);
    // A redelivery after that changes nothing.
    await h.app.deliver('pull_request', prEvent(), { delivery: 'delivery-3' });
    expect(repo.checkRuns).toHaveLength(1);
  });
});

describe('memoryStore', () => {
  it('claims a delivery once, and again after it is released', async () => {
    const store = memoryStore();
    expect(await store.claim('a')).toBe(true);
    expect(await store.claim('a')).toBe(false);
    await store.release('a');
    expect(await store.claim('a')).toBe(true);
  });

  it('claims a delivery with its requests: posted the first time only, and says how far an earlier claim went', async () => {
    const store = memoryStore();
    const request = { kind: 'help' as const, delivery: 'd', commentId: 1, by: 'someone' };
    expect(await store.claimDelivery('d', [{ key: 'pr', request }])).toBe('new');
    expect(await store.claimDelivery('d', [{ key: 'pr', request }])).toBe('working');
    await store.finish('d');
    expect(await store.claimDelivery('d', [{ key: 'pr', request }])).toBe('done');
    expect(await store.peek('pr', 10)).toEqual([JSON.stringify(request)]);
  });
});
