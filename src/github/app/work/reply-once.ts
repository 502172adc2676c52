import { randomUUID } from 'node:crypto';
import type { Logger } from '../../api/index.js';
import type { WorkStore } from './store.js';

/** What one reply answers: the same question about the same reviewed state gets the same answer. */
export interface Question {
  /** The pull request (jobs.ts `prKey`). */
  pr: string;
  /** `explain`, `help`, or a command not understood with whose it is. */
  asked: string;
  headSha: string;
  baseSha: string;
  /** When the review the answer reads started (store's `reviewed`), so a new verdict is explained anew. */
  reviewedAt: number | null;
}

/**
 * Posts `answer` unless the same question about the same head, base and review was answered within
 * `windowMs`, by this replica or another (the lease lives in the store they share). Each reply is a
 * comment GitHub notifies about, the write its secondary limits weigh most: fifteen `explain`
 * comments at once would otherwise post fifteen copies of one answer. The reply already posted
 * stands above them. A reply that fails frees the question, so a later command is answered.
 */
export async function oncePerQuestion(
  store: WorkStore,
  log: Logger,
  question: Question,
  windowMs: number,
  answer: () => Promise<void>,
): Promise<void> {
  if (windowMs <= 0) return answer();
  const { pr, asked, headSha, baseSha, reviewedAt } = question;
  const key = `reply:${pr}|${asked}|${headSha}..${baseSha}|${reviewedAt ?? 'unreviewed'}`;
  const holder = randomUUID();
  if (!(await store.lease(key, windowMs, holder))) {
    log.info({ asked }, 'answered by the reply already posted for this head');
    return;
  }
  try {
    await answer();
  } catch (err) {
    await store.unlease(key, holder).catch(() => undefined);
    throw err;
  }
}
