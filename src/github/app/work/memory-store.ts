import type { Request } from './requests.js';
import type { ReviewedRecord, WorkStore } from './store.js';

/** Enough to catch GitHub's redeliveries and the duplicate events of one push, bounded. */
const REMEMBERED_IDS = 10_000;
const REMEMBERED_HEADS = 1000;

/** A bounded map: the oldest entries are forgotten first. */
class Recent<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
  delete(key: string): void {
    this.entries.delete(key);
  }
}

interface WriteLine {
  holder: string | null;
  heldUntil: number;
  next: number;
  notifyNext: number;
}

/** One process alone: the same contract as Redis, in this process's memory. */
export function memoryStore(): WorkStore {
  const ids = new Recent<'working' | 'done' | 'failed'>(REMEMBERED_IDS);
  const heads = new Recent<ReviewedRecord>(REMEMBERED_HEADS);
  const mailboxes = new Map<string, string[]>();
  const creations = new Map<number, number[]>();
  /** Per write line: its holder while a write is on its way, and when it is free again (epoch ms). */
  const lines = new Map<string, WriteLine>();
  /** Leases by key: who holds each, and until when (epoch ms). */
  const leases = new Recent<{ holder: string; until: number }>(REMEMBERED_HEADS);
  const post = (key: string, request: Request) => mailboxes.set(key, [...(mailboxes.get(key) ?? []), JSON.stringify(request)]);
  return {
    scope: 'local',
    claim(id) {
      if (ids.get(id)) return Promise.resolve(false);
      ids.set(id, 'working');
      return Promise.resolve(true);
    },
    claimDelivery(id, posts) {
      const state = ids.get(id);
      if (state !== undefined && state !== 'failed') return Promise.resolve(state);
      ids.set(id, 'working');
      for (const { key, request } of posts) post(key, request);
      return Promise.resolve(state ?? 'new');
    },
    finish(id) {
      if (ids.get(id) === 'working') ids.set(id, 'done');
      return Promise.resolve();
    },
    failDelivery(id) {
      ids.set(id, 'failed');
      return Promise.resolve();
    },
    release(id) {
      ids.delete(id);
      return Promise.resolve();
    },
    markReviewed(key, headSha, baseSha, record) {
      heads.set(`${key}@${headSha}..${baseSha}`, record);
      return Promise.resolve();
    },
    reviewed: (key, headSha, baseSha) => Promise.resolve(heads.get(`${key}@${headSha}..${baseSha}`) ?? null),
    post(key, request: Request) {
      post(key, request);
      return Promise.resolve();
    },
    peek: (key, max) => Promise.resolve((mailboxes.get(key) ?? []).slice(0, max)),
    drop(key, count) {
      const rest = (mailboxes.get(key) ?? []).slice(count);
      if (rest.length === 0) mailboxes.delete(key);
      else mailboxes.set(key, rest);
      return Promise.resolve();
    },
    takeCreation(installationId, limit, windowMs) {
      const now = Date.now();
      const recent = (creations.get(installationId) ?? []).filter((t) => t > now - windowMs);
      if (recent.length < limit) {
        recent.push(now);
        creations.set(installationId, recent);
        return Promise.resolve(0);
      }
      creations.set(installationId, recent);
      return Promise.resolve(Math.max(1, (recent[0] ?? now) + windowMs - now));
    },
    takeWriteLine(key, holder, holdMs, spacingMs, notifying) {
      const now = Date.now();
      const line = lines.get(key) ?? { holder: null, heldUntil: 0, next: 0, notifyNext: 0 };
      if (line.holder !== null && line.heldUntil > now) return Promise.resolve(Math.max(1, spacingMs));
      const wait = Math.max(line.next, notifying ? line.notifyNext : 0) - now;
      if (wait > 0) return Promise.resolve(wait);
      lines.set(key, { ...line, holder, heldUntil: now + holdMs });
      // Lines free for longer than any spacing hold nothing: forgotten, so the map stays small.
      for (const [k, l] of lines)
        if ((l.holder === null || l.heldUntil < now) && Math.max(l.next, l.notifyNext) < now - 60_000) lines.delete(k);
      return Promise.resolve(0);
    },
    holdWriteLine(key, holder, holdMs) {
      const line = lines.get(key);
      if (line?.holder === holder) line.heldUntil = Date.now() + holdMs;
      return Promise.resolve();
    },
    freeWriteLine(key, holder, spacingMs, notifyingMs) {
      const now = Date.now();
      const line = lines.get(key) ?? { holder: null, heldUntil: 0, next: 0, notifyNext: 0 };
      lines.set(key, {
        holder: line.holder === holder ? null : line.holder,
        heldUntil: line.holder === holder ? 0 : line.heldUntil,
        next: Math.max(line.next, now + spacingMs),
        notifyNext: notifyingMs > 0 ? Math.max(line.notifyNext, now + notifyingMs) : line.notifyNext,
      });
      return Promise.resolve();
    },
    lease(key, ms, holder) {
      const now = Date.now();
      if ((leases.get(key)?.until ?? 0) > now) return Promise.resolve(false);
      leases.set(key, { holder, until: now + ms });
      return Promise.resolve(true);
    },
    unlease(key, holder) {
      if (leases.get(key)?.holder === holder) leases.delete(key);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}
