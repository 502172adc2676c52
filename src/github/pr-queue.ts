/**
 * Serialises work per pull request within one App instance: two deliveries for the same PR (a
 * push and a comment command, say) run one after the other, so neither posts over the other's
 * comment or check. Different PRs run concurrently. Created per App, never module-level.
 */
export interface PrQueue {
  /** Runs `task` after every task queued before it for `key`; its failure is the caller's alone. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Remembers that `key` was reviewed at `headSha` (bounded: the oldest are forgotten). */
  markReviewed(key: string, headSha: string): void;
  wasReviewed(key: string, headSha: string): boolean;
  /** Keys with work queued or running, for tests and diagnostics. */
  readonly pending: number;
}

/** Enough to catch the duplicate events of one push without growing forever. */
const REMEMBERED = 1000;

export function createPrQueue(): PrQueue {
  const tails = new Map<string, Promise<unknown>>();
  const reviewed = new Map<string, true>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const current = previous.then(task, task);
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
    markReviewed(key, headSha) {
      const id = `${key}@${headSha}`;
      reviewed.delete(id);
      reviewed.set(id, true);
      if (reviewed.size > REMEMBERED) {
        const oldest = reviewed.keys().next().value;
        if (oldest !== undefined) reviewed.delete(oldest);
      }
    },
    wasReviewed(key, headSha) {
      return reviewed.has(`${key}@${headSha}`);
    },
    get pending() {
      return tails.size;
    },
  };
}

/** The queue key of a pull request. */
export function prKey(owner: string, repo: string, number: number): string {
  return `${owner.toLowerCase()}/${repo.toLowerCase()}#${number}`;
}
