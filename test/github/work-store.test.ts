import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/github/app/work/memory-store.js';
import { redisStore } from '../../src/github/app/work/redis-store.js';
import type { WorkStore } from '../../src/github/app/work/store.js';
import { startRedis } from '../helpers/redis/server.js';
import type { RunningRedis } from '../helpers/redis/server.js';

/** The work store's contract, asked of both engines alike: this process's memory and a real Redis. */

let redis: RunningRedis;
const clients: Redis[] = [];
let n = 0;
const engines: Record<string, () => WorkStore> = {
  memory: () => memoryStore(),
  redis: () => {
    const c = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    clients.push(c);
    return redisStore(c, `store-test-${++n}:`);
  },
};
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redis.stop();
});

describe.each(Object.keys(engines))('the %s store', (engine) => {
  const open = (): WorkStore => (engines[engine] as () => WorkStore)();

  it('leases a key to one holder at a time; only that holder frees it early', async () => {
    const store = open();
    for (const key of ['comment:acme/infra#7|gpu-justify', 'comment:o/r#1|gpu-justify (staging)']) {
      expect(await store.lease(key, 60_000, 'first')).toBe(true);
      expect(await store.lease(key, 60_000, 'second')).toBe(false);
      // Another holder, or nobody in particular, cannot free it.
      await store.unlease(key, 'second');
      expect(await store.lease(key, 60_000, 'third')).toBe(false);
      await store.unlease(key, 'first');
      expect(await store.lease(key, 60_000, 'second')).toBe(true);
      // Freeing a lease already taken over by another changes nothing.
      await store.unlease(key, 'first');
      expect(await store.lease(key, 60_000, 'third')).toBe(false);
    }
  });

  it('takes a delivery whose job failed for good up again, once, with its requests; finishing never hides the failure', async () => {
    const store = open();
    const request = { kind: 'help' as const, delivery: 'f', commentId: 1, by: 'someone' };
    const posts = [{ key: 'acme/infra#7', request }];
    expect(await store.claimDelivery('f', posts)).toBe('new');
    // The job failed for good before the intake marked its delivery done: done must not cover it.
    await store.failDelivery('f');
    await store.finish('f');
    expect(await store.claimDelivery('f', posts)).toBe('failed');
    expect(await store.claimDelivery('f', posts)).toBe('working');
    await store.finish('f');
    expect(await store.claimDelivery('f', posts)).toBe('done');
    // Posted by the first delivery and by the redelivery that took it up, by no other.
    expect(await store.peek('acme/infra#7', 10)).toEqual([JSON.stringify(request), JSON.stringify(request)]);
    // A delivery never claimed here (its claim expired) is failed all the same, and taken up.
    await store.failDelivery('g');
    expect(await store.claimDelivery('g', [])).toBe('failed');
  });

  it('lets a lease lapse by itself', async () => {
    const store = open();
    expect(await store.lease('k', 30, 'a')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await store.lease('k', 30, 'b')).toBe(true);
  });
});
