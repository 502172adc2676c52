import type fc from 'fast-check';

/**
 * Settings every property that runs the redactor is checked with: the first counterexample is
 * reported as it is, never shrunk (shrinking a redactor case re-runs every reading of every
 * smaller text, and once held a test worker for half an hour), and a property that outlasts
 * `PROPERTY_TIME_LIMIT_MS` fails rather than stopping quietly with fewer runs than it claims.
 */
const PROPERTY_TIME_LIMIT_MS = 50_000;

export const FAIL_FAST = {
  endOnFailure: true,
  interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS,
  markInterruptAsFailure: true,
} as const satisfies fc.Parameters<unknown>;
