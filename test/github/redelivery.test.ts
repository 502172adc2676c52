import { describe, expect, it } from 'vitest';
import { localCoordination } from '../../src/github/coordination.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { REPO_PATH, commentEvent, prEvent, pullRequest, useApp } from './app-harness.js';

const h = useApp();

describe('a redelivered webhook', () => {
  it('starts no second check run for the same delivery', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    await h.app.deliver('pull_request', prEvent(), { delivery: 'delivery-1' });
    await h.app.deliver('pull_request', prEvent(), { delivery: 'delivery-1' });
    expect(repo.checkRuns).toHaveLength(1);
    // A new delivery for the same head is a new request, reviewed again.
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize' }), { delivery: 'delivery-2' });
    expect(repo.checkRuns).toHaveLength(2);
  });

  it('answers a command once', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify help'), { delivery: 'command-1' });
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify help'), { delivery: 'command-1' });
    expect(repo.comments).toHaveLength(1);
    expect(h.fake.calls('POST', /\/reactions$/)).toHaveLength(1);
  });

  it('is handled again when the first attempt failed, so GitHub’s retry is not lost', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    // Refused on every try the review makes: created in progress, then on concluding, twice.
    h.fake.fail('POST', `${REPO_PATH}/check-runs`, { status: 500, body: { message: 'Server Error' } }, 3);
    const first = await h.app.deliver('pull_request', prEvent(), { delivery: 'delivery-3' });
    expect(first.status).toBeGreaterThanOrEqual(500);
    await h.app.deliver('pull_request', prEvent(), { delivery: 'delivery-3' });
    expect(repo.checkRuns).toEqual([expect.objectContaining({ status: 'completed' })]);
  });
});

describe('localCoordination', () => {
  it('claims a delivery once, and again after it is released', async () => {
    const log = localCoordination();
    expect(await log.claimDelivery('a')).toBe(true);
    expect(await log.claimDelivery('a')).toBe(false);
    await log.releaseDelivery('a');
    expect(await log.claimDelivery('a')).toBe(true);
  });
});
