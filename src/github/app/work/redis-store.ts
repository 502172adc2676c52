import type { Redis } from 'ioredis';
import type { Request } from './requests.js';
import { DONE_SECONDS, IN_PROGRESS_SECONDS, MAILBOX_SECONDS, REVIEWED_SECONDS } from './store.js';
import type { ReviewedRecord, WorkStore } from './store.js';

/**
 * A sliding window of content-creating writes per installation, on Redis's clock so replicas
 * with drifting clocks agree: drop entries older than the window, then take one if fewer than
 * the limit remain, else answer how long until the oldest leaves it.
 */
const TAKE_CREATION = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`;

/**
 * Takes a write line: KEYS[1] names its holder while a write is on its way, KEYS[2] and KEYS[3]
 * live as long as the spacing after the last write and the last notifying write (their expiry is
 * Redis's clock, so replicas with drifting clocks agree). ARGV: holder, hold ms, a spacing (the
 * least wait while the line is held: its holder frees it a spacing ahead), notifying (1 or 0).
 */
const TAKE_WRITE_LINE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return math.max(1, tonumber(ARGV[3])) end
local wait = redis.call('PTTL', KEYS[2])
if ARGV[4] == '1' then wait = math.max(wait, redis.call('PTTL', KEYS[3])) end
if wait > 0 then return wait end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 0
`;

/** Frees a write line its holder (ARGV[1]) took, and starts its spacings: ARGV[2] and ARGV[3] ms (0: none). */
const FREE_WRITE_LINE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
if tonumber(ARGV[2]) > 0 then redis.call('SET', KEYS[2], '1', 'PX', ARGV[2]) end
if tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[3], '1', 'PX', ARGV[3]) end
return 0
`;

/** Deletes a lease (KEYS[1]) held by ARGV[1], and no other's. */
const UNLEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;

/** Keeps a write line held by ARGV[1] another ARGV[2] ms. */
const HOLD_WRITE_LINE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

/**
 * Claims a delivery (KEYS[1]) unless it is claimed already, and then only, appends each request
 * (ARGV[3 …]) to its mailbox (KEYS[2 …]): one step, so a replica dying between the two leaves
 * neither. ARGV[1] and ARGV[2]: how long the claim and the mailboxes live, seconds.
 */
const CLAIM_DELIVERY = `
local state = redis.call('GET', KEYS[1])
if state and state ~= 'failed' then return state end
redis.call('SET', KEYS[1], 'working', 'EX', ARGV[1])
for i = 2, #KEYS do
  redis.call('RPUSH', KEYS[i], ARGV[i + 1])
  redis.call('EXPIRE', KEYS[i], ARGV[2])
end
return state or 'new'
`;

/** Marks a delivery (KEYS[1]) done for ARGV[1] seconds, only while it is still claimed: a failed one stays failed. */
const FINISH_DELIVERY = `
if redis.call('GET', KEYS[1]) == 'working' then redis.call('SET', KEYS[1], 'done', 'EX', ARGV[1]) end
return 0
`;

type Scripted = Redis & {
  gpuJustifyTakeCreation(key: string, windowMs: number, limit: number, nonce: string): Promise<number>;
  gpuJustifyClaimDelivery(...keysThenArgs: (string | number)[]): Promise<string>;
  gpuJustifyTakeWriteLine(holderKey: string, nextKey: string, notifyKey: string, ...args: (string | number)[]): Promise<number>;
  gpuJustifyFreeWriteLine(holderKey: string, nextKey: string, notifyKey: string, ...args: (string | number)[]): Promise<number>;
  gpuJustifyHoldWriteLine(holderKey: string, holder: string, holdMs: number): Promise<number>;
  gpuJustifyUnlease(key: string, holder: string): Promise<number>;
  gpuJustifyFinishDelivery(key: string, seconds: number): Promise<number>;
};

/** Replicas sharing one Redis. Keys are prefixed, so several Apps can share one server. */
export function redisStore(client: Redis, prefix: string): WorkStore {
  const redis = client as Scripted;
  if (typeof redis.gpuJustifyTakeCreation !== 'function')
    redis.defineCommand('gpuJustifyTakeCreation', { numberOfKeys: 1, lua: TAKE_CREATION });
  if (typeof redis.gpuJustifyTakeWriteLine !== 'function') {
    redis.defineCommand('gpuJustifyTakeWriteLine', { numberOfKeys: 3, lua: TAKE_WRITE_LINE });
    redis.defineCommand('gpuJustifyFreeWriteLine', { numberOfKeys: 3, lua: FREE_WRITE_LINE });
    redis.defineCommand('gpuJustifyHoldWriteLine', { numberOfKeys: 1, lua: HOLD_WRITE_LINE });
  }
  if (typeof redis.gpuJustifyUnlease !== 'function') redis.defineCommand('gpuJustifyUnlease', { numberOfKeys: 1, lua: UNLEASE });
  if (typeof redis.gpuJustifyFinishDelivery !== 'function')
    redis.defineCommand('gpuJustifyFinishDelivery', { numberOfKeys: 1, lua: FINISH_DELIVERY });
  // The number of keys varies with the requests: given first on each call.
  if (typeof redis.gpuJustifyClaimDelivery !== 'function') redis.defineCommand('gpuJustifyClaimDelivery', { lua: CLAIM_DELIVERY });
  const head = (key: string, headSha: string, baseSha: string) => `${prefix}reviewed:${key}@${headSha}..${baseSha}`;
  const mailbox = (key: string) => `${prefix}mailbox:${key}`;
  const line = (key: string) => [`${prefix}writes:${key}:holder`, `${prefix}writes:${key}:next`, `${prefix}writes:${key}:notify`] as const;
  return {
    scope: 'shared',
    claim: async (id) => (await client.set(`${prefix}delivery:${id}`, 'working', 'EX', IN_PROGRESS_SECONDS, 'NX')) === 'OK',
    async claimDelivery(id, posts) {
      const state = await redis.gpuJustifyClaimDelivery(
        1 + posts.length,
        `${prefix}delivery:${id}`,
        ...posts.map((p) => mailbox(p.key)),
        IN_PROGRESS_SECONDS,
        MAILBOX_SECONDS,
        ...posts.map((p) => JSON.stringify(p.request)),
      );
      if (state === 'new' || state === 'working' || state === 'done' || state === 'failed') return state;
      throw new Error(`unexpected delivery state in Redis: ${state}`);
    },
    // Only a delivery still claimed: one whose job has failed for good since stays failed.
    finish: async (id) => void (await redis.gpuJustifyFinishDelivery(`${prefix}delivery:${id}`, DONE_SECONDS)),
    failDelivery: async (id) => void (await client.set(`${prefix}delivery:${id}`, 'failed', 'EX', DONE_SECONDS)),
    release: async (id) => void (await client.del(`${prefix}delivery:${id}`)),
    markReviewed: async (key, headSha, baseSha, record) =>
      void (await client.set(head(key, headSha, baseSha), JSON.stringify(record), 'EX', REVIEWED_SECONDS)),
    async reviewed(key, headSha, baseSha) {
      const text = await client.get(head(key, headSha, baseSha));
      return text === null ? null : readRecord(text);
    },
    async post(key, request: Request) {
      await client.multi().rpush(mailbox(key), JSON.stringify(request)).expire(mailbox(key), MAILBOX_SECONDS).exec();
    },
    peek: (key, max) => client.lrange(mailbox(key), 0, max - 1),
    drop: async (key, count) => void (count > 0 ? await client.ltrim(mailbox(key), count, -1) : undefined),
    takeCreation: async (installationId, limit, windowMs) =>
      Number(
        await redis.gpuJustifyTakeCreation(`${prefix}creations:${installationId}`, windowMs, limit, Math.random().toString(36).slice(2)),
      ),
    takeWriteLine: async (key, holder, holdMs, spacingMs, notifying) =>
      Number(await redis.gpuJustifyTakeWriteLine(...line(key), holder, holdMs, spacingMs, notifying ? 1 : 0)),
    holdWriteLine: async (key, holder, holdMs) => void (await redis.gpuJustifyHoldWriteLine(line(key)[0], holder, holdMs)),
    freeWriteLine: async (key, holder, spacingMs, notifyingMs) =>
      void (await redis.gpuJustifyFreeWriteLine(...line(key), holder, spacingMs, notifyingMs)),
    lease: async (key, ms, holder) => (await client.set(`${prefix}lease:${key}`, holder, 'PX', Math.max(1, Math.round(ms)), 'NX')) === 'OK',
    unlease: async (key, holder) => void (await redis.gpuJustifyUnlease(`${prefix}lease:${key}`, holder)),
    close: () => Promise.resolve(),
  };
}

function readRecord(text: string): ReviewedRecord | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { at, verdict, policy } = value as { at?: unknown; verdict?: unknown; policy?: unknown };
    if (typeof at !== 'number' || (verdict !== null && typeof verdict !== 'string')) return null;
    return { at, verdict, ...(typeof policy === 'string' ? { policy } : {}) };
  } catch {
    return null;
  }
}
