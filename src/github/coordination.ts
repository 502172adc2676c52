/**
 * How replicas of the App agree on who handles what: which webhook deliveries were already taken,
 * who reviews a pull request right now, which heads were already reviewed. One replica alone keeps
 * it in memory; several share it through Redis (`REDIS_URL`, see redis-coordination.ts).
 */
export interface Coordination {
  /** `shared`: replicas coordinate through Redis; `local`: this process alone. */
  readonly scope: 'shared' | 'local';
  /** True the first time a delivery id is claimed anywhere; false for a redelivery. */
  claimDelivery(id: string): Promise<boolean>;
  /** A delivery whose handling failed: a redelivery may try it again. */
  releaseDelivery(id: string): Promise<void>;
  /** A delivery handled to the end: remembered for longer than one in progress. */
  finishDelivery(id: string): Promise<void>;
  /** Runs `task` while no other replica runs one for `key`. */
  exclusive<T>(key: string, task: () => Promise<T>): Promise<T>;
  markReviewed(key: string, headSha: string): Promise<void>;
  wasReviewed(key: string, headSha: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Enough to catch GitHub's redeliveries and the duplicate events of one push, bounded. */
const REMEMBERED_DELIVERIES = 10_000;
const REMEMBERED_HEADS = 1000;

/** A bounded set: the oldest entries are forgotten first. */
class Recent {
  private readonly entries = new Set<string>();
  constructor(private readonly limit: number) {}
  has(id: string): boolean {
    return this.entries.has(id);
  }
  add(id: string): void {
    this.entries.delete(id);
    this.entries.add(id);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.values().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
  delete(id: string): void {
    this.entries.delete(id);
  }
}

/**
 * One process alone. Its exclusivity is the per-PR queue's ordering (pr-queue.ts); across
 * replicas, the sticky comment's settle-after-create keeps a pull request to one comment.
 */
export function localCoordination(): Coordination {
  const deliveries = new Recent(REMEMBERED_DELIVERIES);
  const heads = new Recent(REMEMBERED_HEADS);
  return {
    scope: 'local',
    claimDelivery(id) {
      if (deliveries.has(id)) return Promise.resolve(false);
      deliveries.add(id);
      return Promise.resolve(true);
    },
    releaseDelivery(id) {
      deliveries.delete(id);
      return Promise.resolve();
    },
    finishDelivery() {
      return Promise.resolve();
    },
    exclusive: (_key, task) => task(),
    markReviewed(key, headSha) {
      heads.add(`${key}@${headSha}`);
      return Promise.resolve();
    },
    wasReviewed(key, headSha) {
      return Promise.resolve(heads.has(`${key}@${headSha}`));
    },
    close: () => Promise.resolve(),
  };
}
