import { Socket } from 'node:net';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppMetrics } from '../metrics.js';
import { memoryStore } from '../work/memory-store.js';
import { INTAKE_TIMEOUT_MS } from '../work/runtime.js';
import { submit, within } from './submit.js';

/**
 * An echo server on loopback in a process of its own, as Redis is: it answers while this thread is
 * held, and the reply waits in the socket.
 */
const ECHO = `
const { createServer } = require('node:net');
const server = createServer((socket) => {
  socket.on('error', () => undefined);
  socket.on('data', (data) => setTimeout(() => socket.destroyed || socket.write(data), Number(data.toString())));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;
let echo: ChildProcess;
let port: number;
beforeAll(async () => {
  echo = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'pipe', 'inherit'] });
  port = await new Promise<number>((resolve) => echo.stdout?.once('data', (data: Buffer) => resolve(Number(data.toString().trim()))));
});
afterAll(() => {
  echo.kill();
});

/** Resolves with the echo of `delayMs` after that long, as a Redis command resolves with its reply. */
async function command(delayMs: number): Promise<{ reply: Promise<string>; socket: Socket }> {
  const socket = new Socket();
  await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
  const reply = new Promise<string>((resolve) => socket.once('data', (data) => resolve(data.toString())));
  socket.write(String(delayMs));
  return { reply, socket };
}

/** Holds the event loop, as a review's work on the main thread did under load. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('the intake waits for Redis within a limit of its own thread time', () => {
  it('takes a reply that arrived while the loop was held past the limit', async () => {
    const { reply, socket } = await command(0);
    const answer = within(reply, 50);
    hold(150);
    await expect(answer).resolves.toBe('0');
    socket.destroy();
  });

  it('where a bare timer gives up on the same reply', async () => {
    const { reply, socket } = await command(0);
    const timer = new Promise<string>((_, reject) => setTimeout(() => reject(new Error('timed out')), 50));
    const answer = Promise.race([reply, timer]);
    hold(150);
    await expect(answer).rejects.toThrow('timed out');
    socket.destroy();
  });

  it('gives a command sent after the loop was held its own time again', async () => {
    // The first reply comes while the loop is held; the second command, sent after, needs 30 ms.
    // Held 600 ms: the limit's timer fires 400 ms late, long after the first reply arrived.
    const first = await command(0);
    let second: Socket | undefined;
    const answer = within(
      first.reply.then(async () => {
        const next = await command(30);
        second = next.socket;
        return next.reply;
      }),
      200,
    );
    hold(600);
    await expect(answer).resolves.toBe('30');
    first.socket.destroy();
    second?.destroy();
  });

  it('fails once the limit passes with no reply', async () => {
    await expect(within(new Promise<string>(() => undefined), 30)).rejects.toThrow('redis did not answer within 30 ms');
  });

  it('fails a command slower than the limit', async () => {
    const { reply, socket } = await command(200);
    await expect(within(reply, 50)).rejects.toThrow('redis did not answer within 50 ms');
    socket.destroy();
  });

  it('passes a failure on as it came', async () => {
    await expect(within(Promise.reject(new Error('READONLY')), 30)).rejects.toThrow('READONLY');
  });
});

describe('a delivery whose Redis answers after the limit', () => {
  const data = { kind: 'pr' as const, installationId: 1, owner: 'o', repo: 'r', number: 1, delivery: 'd' };
  const request = { kind: 'help' as const, delivery: 'd', commentId: 1, by: 'u' };
  function runtime(claimDelivery: () => Promise<'new'>) {
    const added: string[] = [];
    const queue = (scope: 'shared' | 'local') => ({
      scope,
      add: () => (added.push(scope), Promise.resolve('queued' as const)),
      retake: () => (added.push(scope), Promise.resolve('queued' as const)),
      counts: () => Promise.resolve({ waiting: 0, active: 0, delayed: 0, failed: 0 }),
      idle: () => Promise.resolve(),
      close: () => Promise.resolve(),
    });
    const sharedStore = { ...memoryStore(), scope: 'shared' as const, claimDelivery };
    const pending: Promise<void>[] = [];
    const work = {
      shared: { queue: queue('shared'), store: sharedStore, ready: () => true, reachable: () => Promise.resolve(true) },
      local: { queue: queue('local'), store: memoryStore() },
      counts: () => Promise.resolve({ waiting: 0, active: 0, delayed: 0, failed: 0 }),
      track: (p: Promise<void>) => void pending.push(p),
      idle: async () => void (await Promise.all(pending)),
      close: () => Promise.resolve(),
    };
    return { work, added };
  }
  const log = { info: () => undefined, warn: () => undefined };
  const late = <T>(value: T, ms: number, fail = false) =>
    new Promise<T>((resolve, reject) => setTimeout(() => (fail ? reject(new Error('down')) : resolve(value)), ms));

  it('is queued in Redis alone once Redis takes it late: not here too, or it would be answered twice', async () => {
    const { work, added } = runtime(() => late('new' as const, INTAKE_TIMEOUT_MS + 300));
    const started = performance.now();
    await submit(work, new AppMetrics({ processMetrics: false }), 'd', [{ data, requests: [request] }], log);
    expect(performance.now() - started).toBeLessThan(INTAKE_TIMEOUT_MS + 250);
    await work.idle();
    expect(added).toEqual(['shared']);
  });

  it('is queued here once Redis fails it', async () => {
    const { work, added } = runtime(() => late('new' as const, INTAKE_TIMEOUT_MS + 300, true));
    await submit(work, new AppMetrics({ processMetrics: false }), 'd', [{ data, requests: [request] }], log);
    await work.idle();
    // The shared add went out in the claim's write; on one connection Redis fails both, and a job
    // there would find no request of this delivery posted. The delivery is queued here.
    expect(added).toEqual(['shared', 'local']);
  });
});
