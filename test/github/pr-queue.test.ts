import { describe, expect, it } from 'vitest';
import { createPrQueue } from '../../src/github/pr-queue.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('createPrQueue', () => {
  it('runs tasks for one key one after another, and for different keys at once', async () => {
    const queue = createPrQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([queue.run('a#1', task('a1')), queue.run('b#1', task('b1')), queue.run('a#1', task('a2'))]);

    expect(results).toEqual(['a1', 'b1', 'a2']);
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    expect(queue.pending).toBe(0);
  });

  it('a failing task fails its caller only; the next one still runs', async () => {
    const queue = createPrQueue();
    const first = queue.run('k', () => Promise.reject(new Error('boom')));
    const second = queue.run('k', () => Promise.resolve('ok'));
    await expect(first).rejects.toThrow('boom');
    await expect(second).resolves.toBe('ok');
  });

  it('each queue is its own: nothing is shared between instances', async () => {
    const a = createPrQueue();
    const b = createPrQueue();
    await a.markReviewed('k', 'sha');
    expect(await a.wasReviewed('k', 'sha')).toBe(true);
    expect(await b.wasReviewed('k', 'sha')).toBe(false);
    let release = (): void => undefined;
    const blocked = a.run('k', () => new Promise<void>((r) => (release = r)));
    await expect(b.run('k', () => Promise.resolve('free'))).resolves.toBe('free');
    release();
    await blocked;
  });
});
