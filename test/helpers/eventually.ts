import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /** What is awaited, for the failure message: `the review's check concluded`. */
  what: string;
  /** Default 60 s: a loaded machine can answer a webhook long before its review ends. */
  timeoutMs?: number;
  /** Default 25 ms. */
  everyMs?: number;
  /** What the test sees when time is up, added to the failure message. */
  state?: () => unknown;
}

/**
 * Resolves once `check` holds, asking again every `everyMs`; rejects after `timeoutMs` naming
 * what it waited for and what it saw then. For what a test can only observe from outside (a
 * fake's requests, a process's metrics); an event the test can hear is awaited as a promise.
 */
export async function eventually(check: () => boolean | Promise<boolean>, options: EventuallyOptions): Promise<void> {
  const { what, timeoutMs = 60_000, everyMs = 25, state } = options;
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) {
      const seen = state === undefined ? '' : `; saw ${JSON.stringify(state(), null, 2)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
    }
    await sleep(everyMs);
  }
}
