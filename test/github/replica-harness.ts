import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, expect } from 'vitest';
import { AppServer, newPrivateKey } from '../helpers/app-server.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { testApp, useApp, witnessFor } from './app-harness.js';
import type { Harness } from './app-harness.js';

/**
 * Two replicas of the App (two webhook servers, one App id, key and secret) against one fake
 * GitHub, for tests that make them review the same pull request at the same moment. The fake
 * holds a request until the other replica has caught up, so a race happens every time rather
 * than by luck. After each test, neither replica may have logged a warning or an error.
 */
export interface Replicas extends Harness {
  /** The second replica; `app` is the first. */
  other: AppServer;
}

export function useReplicas(): Replicas {
  const key = newPrivateKey();
  const logged: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString('utf8'));
      done();
    },
  });
  const options = () => ({ privateKey: key, log: pino({ level: 'warn' }, sink) });
  const h = useApp(options);
  const replicas = h as Replicas;
  beforeEach(async () => {
    logged.length = 0;
    replicas.other = await AppServer.start(testApp, h.fake.url, { witness: witnessFor(h.fake), ...options() });
  });
  afterEach(async () => {
    await replicas.other.close();
    // A review overtaken by a push has its suggestion refused for the old commit: expected.
    expect(logged.filter((l) => !l.includes('suggested change refused by GitHub'))).toEqual([]);
  });
  return replicas;
}

/**
 * Ids of check runs in the order the fake applied their conclusions (a held request is applied
 * when released, not when it arrived). Call before the FakeRepo serves: it wraps the route the
 * repository declares for check-run updates.
 */
export function recordConclusions(fake: FakeGitHub): number[] {
  const order: number[] = [];
  const on = fake.on.bind(fake);
  fake.on = (method, pattern, handler) =>
    on(
      method,
      pattern,
      method !== 'PATCH' || !pattern.endsWith('/check-runs/:id')
        ? handler
        : async (req) => {
            const reply = await handler(req);
            if ((req.body as { conclusion?: unknown } | undefined)?.conclusion !== undefined) order.push(Number(req.params.id));
            return reply;
          },
    );
  return order;
}
