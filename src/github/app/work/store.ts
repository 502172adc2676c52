import type { Request } from './requests.js';

/** The outcome of the last review of one head against one base. */
export interface ReviewedRecord {
  /** When it started, epoch ms: it reflects every event that arrived before. */
  at: number;
  /** The verdict; null when the review could not run (a re-run then always runs). */
  verdict: string | null;
  /** A digest of the policy that judged it (reviewed-head.ts); absent when the review did not read one. */
  policy?: string;
}

/**
 * What the intake and the workers share besides the queue itself: delivery ids already taken,
 * heads already reviewed, each pull request's mailbox, and each installation's allowance of
 * content-creating writes. One process alone keeps it in memory (memory-store.ts); replicas share
 * it through Redis (redis-store.ts). Every method may throw when its store does not answer.
 */
export interface WorkStore {
  readonly scope: 'shared' | 'local';
  /** True the first time an id is claimed anywhere; false for a redelivery. */
  claim(id: string): Promise<boolean>;
  /**
   * Claims a webhook delivery and posts its requests to their mailboxes in one step, so a
   * replica that dies in between cannot leave the delivery claimed with its requests unposted.
   * `new` the first time (the requests are posted); else nothing is posted and the answer says
   * how far the delivery went: `done` when queued to the end, `working` when a replica claimed it
   * and has not finished (it is queueing it now, or died doing so). `failed` when its job failed
   * for good since (`failDelivery`): claimed again and its requests posted, as the first time; its
   * failed job is kept for inspection under the same id, so the caller queues it again (retake).
   */
  claimDelivery(id: string, posts: readonly Post[]): Promise<'new' | 'working' | 'done' | 'failed'>;
  /** Handled to the end: remembered as long as GitHub lets a delivery be redelivered. Only a delivery still `working`. */
  finish(id: string): Promise<void>;
  /** Its job failed for good: a redelivery takes it up again (claimDelivery answers `failed`). */
  failDelivery(id: string): Promise<void>;
  /** Not handled after all: a redelivery may try again. */
  release(id: string): Promise<void>;
  markReviewed(key: string, headSha: string, baseSha: string, record: ReviewedRecord): Promise<void>;
  reviewed(key: string, headSha: string, baseSha: string): Promise<ReviewedRecord | null>;
  /** Adds a request at the end of a pull request's mailbox. */
  post(key: string, request: Request): Promise<void>;
  /** The first `max` entries, oldest first, as stored. */
  peek(key: string, max: number): Promise<string[]>;
  /** Removes the first `count` entries: those a job has answered. Only that pull request's job calls it. */
  drop(key: string, count: number): Promise<void>;
  /**
   * Takes one content-creating write from an installation's allowance of `limit` per `windowMs`:
   * 0 when taken, else how many ms until one is free (nothing taken then).
   */
  takeCreation(installationId: number, limit: number, windowMs: number): Promise<number>;
  /**
   * Takes an installation's write line (`key`) for one write, held by `holder` until it frees the
   * line or `holdMs` pass: 0 when taken, else how many ms at least until it may be free (nothing
   * taken then; `spacingMs` while another write holds it, as it starts a spacing when freed). The
   * line is free when no write holds it and the spacing its last write started has passed; a
   * `notifying` write also waits out the longer spacing of the last notifying write.
   */
  takeWriteLine(key: string, holder: string, holdMs: number, spacingMs: number, notifying: boolean): Promise<number>;
  /** Keeps the line held by `holder` another `holdMs`, while its write is still on its way. */
  holdWriteLine(key: string, holder: string, holdMs: number): Promise<void>;
  /**
   * Frees the line once GitHub answered `holder`'s write: the next write may take it `spacingMs`
   * from now, the next notifying write `notifyingMs` from now (0: this write did not notify).
   */
  freeWriteLine(key: string, holder: string, spacingMs: number, notifyingMs: number): Promise<void>;
  /**
   * Takes `key` for `ms`, for `holder`, unless it is taken already: true when taken. Only its
   * holder frees it early (`unlease`), so whoever did something under it is found by a later
   * taker that looks (our comment's creation).
   */
  lease(key: string, ms: number, holder: string): Promise<boolean>;
  /** Frees `key` if `holder` holds it: what it did under it is known not to need finding. */
  unlease(key: string, holder: string): Promise<void>;
  close(): Promise<void>;
}

/** A request for one pull request's mailbox. */
interface Post {
  key: string;
  request: Request;
}

/** A delivery being handled: if its replica dies before queueing it, a redelivery after this long is taken again. */
export const IN_PROGRESS_SECONDS = 10 * 60;
/** GitHub lets a delivery be redelivered by hand for three days. */
export const DONE_SECONDS = 3 * 24 * 60 * 60;
/** Heads reviewed: duplicate events of one push within a day find the review done. */
export const REVIEWED_SECONDS = 24 * 60 * 60;
/** A mailbox nobody reads any more (its pull request closed) is forgotten after a week. */
export const MAILBOX_SECONDS = 7 * 24 * 60 * 60;
