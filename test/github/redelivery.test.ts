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

describe('a redelivered webhook, in this process alone', () => {
  const PULL = `${REPO_PATH}/pulls/7`;

  it('of a delivery queued to the end queues nothing: no job, not one GitHub request', async () => {
    for (const [event, payload] of [
      ['pull_request', prEvent()],
      ['pull_request', prEvent({ action: 'synchronize' })],
      ['issue_comment', commentEvent('/gpu-justify help')],
      ['issue_comment', commentEvent('/gpu-justify')],
    ] as const) {
      const delivery = `finished-${event}-${h.fake.requests.length}`;
      new FakeRepo(h.fake, pullRequest()).serve();
      const first = await h.app.deliver(event, payload, { delivery });
      expect(first.status).toBe(200);
      const before = h.fake.requests.length;
      expect(before).toBeGreaterThan(0);
      const again = await h.app.deliver(event, payload, { delivery });
      expect(again.status).toBe(200);
      expect(h.fake.requests.slice(before)).toEqual([]);
    }
  });

  it('of a delivery whose job failed for good is taken up again', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // Not worth another attempt: the job fails for good at once.
    h.fake.fail('GET', PULL, { status: 404, body: { message: 'Not Found' } }, 1);
    await h.app.deliver('pull_request', prEvent(), { delivery: 'failed-for-good' });
    expect(repo.checkRuns).toEqual([]);

    await h.app.deliver('pull_request', prEvent(), { delivery: 'failed-for-good' });
    expect(repo.checkRuns).toEqual([expect.objectContaining({ status: 'completed' })]);
    // Done now: a third delivery of it changes nothing.
    await h.app.deliver('pull_request', prEvent(), { delivery: 'failed-for-good' });
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
