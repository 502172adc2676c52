import { randomUUID } from 'node:crypto';
import type { GitHubClient, Logger } from '../../api/index.js';
import type { WorkStore } from '../work/store.js';
import { GpuJustifyError } from '../../../domain/errors.js';

/**
 * How the App keeps its writes within GitHub's secondary rate limits, per installation.
 *
 * GitHub's published guidance: make requests for one installation serially, and wait at least a
 * second between POST, PATCH, PUT or DELETE requests
 * (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api#avoid-concurrent-requests);
 * in general no more than 80 content-generating requests a minute and no more than 500 an hour
 * (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits).
 *
 * - Writes one at a time, a spacing apart: each write of an installation (POST, PATCH, PUT, DELETE
 *   but GraphQL queries and tokens) takes the installation's write line where it is sent (the
 *   client's fetch, so a retry of Octokit's plugins takes it again), holds it until GitHub has
 *   answered, and frees it for the next write `GPU_JUSTIFY_WRITE_SPACING_MS` (1,000) after that
 *   answer; a notifying write (comment, review) also waits three spacings after the last
 *   notifying write's answer. The answer comes after GitHub received the write, so two writes
 *   reach GitHub at least the spacing apart however long a thread is held between taking the line
 *   and sending (turns taken by time alone reached GitHub 19 ms apart when a replica's event loop
 *   stalled between the two). The line lives in the work store: in Redis when replicas share
 *   one, so every job of every replica waits for it; in memory otherwise.
 * - At most `GPU_JUSTIFY_CREATES_PER_HOUR` content-creating writes (every POST but a GraphQL
 *   query or a token) per installation in any hour, counted in the same store.
 *
 * A write that has waited MAX_WAIT_MS for its turn fails its job with a time to try again
 * (work/transient.ts): a burst of one installation waits in the queue, not in memory.
 */

/** GitHub's ceiling is 500 an hour; the default leaves a margin for requests made elsewhere. */
const DEFAULT_CREATES_PER_HOUR = 480;
const HOUR_MS = 60 * 60_000;
/** Longest a write waits here for the allowance or its turn; past it the job is tried again when it frees up. */
const MAX_WAIT_MS = 30_000;
const DEFAULT_SPACING_MS = 1000;
/** GitHub counts comments and reviews (writes that notify people) more strictly: octokit spaces them 3 s. */
const NOTIFYING_FACTOR = 3;

/** The installation has spent its hourly allowance of content-creating writes; `retryAt` is when one frees up. */
export class CreationAllowanceSpent extends GpuJustifyError {
  override readonly kind = 'github-creation-allowance';
  constructor(
    readonly retryAt: number,
    limit: number,
  ) {
    super(
      `this installation made ${limit} content-creating writes in the last hour, GitHub's secondary limit; the next one is possible at ${new Date(retryAt).toISOString()}`,
    );
    this.name = 'CreationAllowanceSpent';
  }
}

/** The installation's writes are queued further ahead than a job should wait; `retryAt` is its turn. */
export class WriteTurnsTaken extends GpuJustifyError {
  override readonly kind = 'github-write-turns';
  constructor(readonly retryAt: number) {
    // Also shown on a check whose comment it stopped: what is tried again is for the caller to say.
    super(`this installation's writes are queued until ${new Date(retryAt).toISOString()}`);
    this.name = 'WriteTurnsTaken';
  }
}

/** `GPU_JUSTIFY_WRITE_SPACING_MS`: ms between an installation's writes, 0 or more (0: not spaced), else 1,000. */
export function writeSpacingMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env['GPU_JUSTIFY_WRITE_SPACING_MS'];
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_SPACING_MS;
}

/** The operator's allowance: `GPU_JUSTIFY_CREATES_PER_HOUR`, a positive integer, else the default. */
export function createsPerHour(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env['GPU_JUSTIFY_CREATES_PER_HOUR']);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_CREATES_PER_HOUR;
}

/** A request that changes something on GitHub: every method but reads, GraphQL queries and tokens. */
function writes(options: { method: string; url: string }): boolean {
  if (options.method === 'GET' || options.method === 'HEAD') return false;
  return !/\/graphql$/.test(options.url) && !/\/access_tokens$/.test(options.url);
}

/** A request that creates content on GitHub. */
function creates(options: { method: string; url: string }): boolean {
  return options.method === 'POST' && writes(options);
}

/** A write that notifies people: a new issue or pull-request comment, a review or a review comment. */
function notifies(options: { method: string; url: string }): boolean {
  return options.method === 'POST' && /\/(issues|pulls)\/[^/]+\/(comments|reviews)$/.test(options.url);
}

const paced = new WeakSet<object>();

/** How long a write holds its line without renewing it: a replica that died mid-write frees it after this. */
const HOLD_MS = 15_000;

/** How one installation's client paces its writes. */
export interface WritePacing {
  store: WorkStore;
  installationId: number;
  /** Content-creating writes an hour. */
  perHour: number;
  /** Between one write's answer and the next write, ms (0: not spaced). */
  spacingMs: number;
}

type Fetch = typeof globalThis.fetch;

/**
 * Every request of this installation client passes through here, the outermost step of Octokit's
 * request, for the App's requests and those its plugins retry alike. A write takes the line
 * first (an error here reaches the job as it is, not as a failed request Octokit would retry),
 * holds it through Octokit's retries, and frees it once GitHub has answered.
 */
export function paceWrites(octokit: GitHubClient, pacing: WritePacing, log: Pick<Logger, 'warn'>): GitHubClient {
  if (paced.has(octokit)) return octokit;
  paced.add(octokit);
  octokit.hook.wrap('request', async (send, options) => {
    const request = { method: options.method, url: String(options.url) };
    if (!writes(request)) return send(options);
    if (creates(request)) await takeCreation(pacing, log);
    if (pacing.spacingMs === 0) return send(options);
    const line = String(pacing.installationId);
    const holder = randomUUID();
    const notifying = notifies(request);
    await takeLine(pacing, line, holder, notifying);
    // A slow answer, or retries, keep the line: renewed while the write is on its way.
    const renew = setInterval(() => void pacing.store.holdWriteLine(line, holder, HOLD_MS).catch(() => undefined), HOLD_MS / 3);
    renew.unref();
    try {
      options.request = {
        ...options.request,
        fetch: spacedAttempts((options.request.fetch as Fetch | undefined) ?? globalThis.fetch, pacing),
      };
      return await send(options);
    } finally {
      clearInterval(renew);
      const notifyingMs = notifying ? pacing.spacingMs * NOTIFYING_FACTOR : 0;
      await pacing.store.freeWriteLine(line, holder, pacing.spacingMs, notifyingMs).catch((err: unknown) => {
        // Not freed: the line frees itself once its hold lapses.
        log.warn({ installation: pacing.installationId, err: err instanceof Error ? err.message : String(err) }, 'write line not freed');
      });
    }
  });
  return octokit;
}

/** The fetch of one write holding the line: a retry of Octokit's plugins leaves a spacing after the last answer too. */
function spacedAttempts(fetch: Fetch, pacing: WritePacing): Fetch {
  let answered: number | null = null;
  return async (input, init) => {
    const wait = answered === null ? 0 : answered + pacing.spacingMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      return await fetch(input, init);
    } finally {
      answered = Date.now();
    }
  };
}

async function takeLine(pacing: WritePacing, line: string, holder: string, notifying: boolean): Promise<void> {
  for (let waited = 0; ;) {
    const wait = await pacing.store.takeWriteLine(line, holder, HOLD_MS, pacing.spacingMs, notifying);
    if (wait === 0) return;
    if (waited + wait > MAX_WAIT_MS) throw new WriteTurnsTaken(Date.now() + wait);
    // A little later than the line frees up, by chance: writers that wait together do not all ask at once.
    const pause = wait + Math.floor(Math.random() * Math.min(100, pacing.spacingMs / 4));
    await new Promise((resolve) => setTimeout(resolve, pause));
    waited += pause;
  }
}

async function takeCreation(pacing: WritePacing, log: Pick<Logger, 'warn'>): Promise<void> {
  for (let waited = 0; ;) {
    const wait = await pacing.store.takeCreation(pacing.installationId, pacing.perHour, HOUR_MS);
    if (wait === 0) return;
    if (waited + wait > MAX_WAIT_MS) throw new CreationAllowanceSpent(Date.now() + wait, pacing.perHour);
    log.warn({ installation: pacing.installationId, waitMs: wait }, 'hourly allowance of content-creating writes spent; waiting');
    await new Promise((resolve) => setTimeout(resolve, wait));
    waited += wait;
  }
}
