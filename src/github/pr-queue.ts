import type { Coordination } from './coordination.js';
import { localCoordination } from './coordination.js';

/**
 * Serialises work per pull request: two deliveries for the same PR (a push and a comment command,
 * say) run one after the other, so neither posts over the other's comment or check. Within one
 * process the queue orders them; across replicas the coordination's lock does (Redis, when
 * configured). Different PRs run concurrently. Created per App, never module-level.
 */
export interface PrQueue {
  /** Runs `task` after every task queued before it for `key`; its failure is the caller's alone. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Remembers that `key` was reviewed at `headSha` (bounded, or with a TTL in Redis). */
  markReviewed(key: string, headSha: string): Promise<void>;
  wasReviewed(key: string, headSha: string): Promise<boolean>;
  /** Keys with work queued or running in this process, for tests and diagnostics. */
  readonly pending: number;
}

export function createPrQueue(coordination: Coordination = localCoordination()): PrQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const locked = () => coordination.exclusive(key, task);
      const current = previous.then(locked, locked);
      const tail = current.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return current;
    },
    markReviewed: (key, headSha) => coordination.markReviewed(key, headSha),
    wasReviewed: (key, headSha) => coordination.wasReviewed(key, headSha),
    get pending() {
      return tails.size;
    },
  };
}

/** The queue key of a pull request. */
export function prKey(owner: string, repo: string, number: number): string {
  return `${owner.toLowerCase()}/${repo.toLowerCase()}#${number}`;
}
