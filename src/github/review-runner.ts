import type { ReviewResult } from '../domain/review.js';
import { runReview, type ReviewInput } from '../review/index.js';

/**
 * Where a review's reading and judging run: in the App's worker threads (review-pool.ts), or in
 * this thread (the Action, the CLI, an App run with `GPU_JUSTIFY_REVIEW_WORKERS=0`). `signal`
 * aborts it at its deadline: a worker is stopped at once; this thread can only stop waiting.
 */
export interface ReviewRunner {
  run(input: ReviewInput, signal: AbortSignal): Promise<ReviewResult>;
}

export const inThisThread: ReviewRunner = {
  run: (input) => runReview(input),
};
