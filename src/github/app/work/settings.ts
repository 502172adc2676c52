import { createsPerHour, writeSpacingMs } from '../writers/pacing.js';

/** How the App's workers run, from the operator's environment (docs: README, "More than one replica"). */
export interface WorkSettings {
  /** `GPU_JUSTIFY_WORKER_CONCURRENCY`: jobs each replica runs at once (default 8). */
  concurrency: number;
  /** `GPU_JUSTIFY_JOB_ATTEMPTS`: runs of a job before it fails for good (default 5). */
  attempts: number;
  /**
   * `GPU_JUSTIFY_JOB_LOCK_SECONDS`: how long a job stays with a replica that stopped renewing
   * it (default 30): a job whose replica died runs again elsewhere within twice this.
   */
  lockMs: number;
  /** `GPU_JUSTIFY_RETRY_BASE_MS`: the first wait before a failed job runs again, doubling each time (default 2000). */
  retryBaseMs: number;
  /** `GPU_JUSTIFY_RERUN_COALESCE_SECONDS`: a re-run this soon after a review of the same head is answered by it (default 600; 0: never). */
  rerunWindowMs: number;
  /** `GPU_JUSTIFY_CREATES_PER_HOUR`: content-creating writes per installation and hour (default 480). */
  createsPerHour: number;
  /** `GPU_JUSTIFY_WRITE_SPACING_MS`: between two writes of one installation, across replicas (default 1000; 0: not spaced). */
  writeSpacingMs: number;
}

export function workSettings(env: Record<string, string | undefined> = process.env): WorkSettings {
  return {
    concurrency: integer(env['GPU_JUSTIFY_WORKER_CONCURRENCY'], 8, 1),
    attempts: integer(env['GPU_JUSTIFY_JOB_ATTEMPTS'], 5, 1),
    lockMs: integer(env['GPU_JUSTIFY_JOB_LOCK_SECONDS'], 30, 1) * 1000,
    retryBaseMs: integer(env['GPU_JUSTIFY_RETRY_BASE_MS'], 2000, 1),
    rerunWindowMs: integer(env['GPU_JUSTIFY_RERUN_COALESCE_SECONDS'], 600, 0) * 1000,
    createsPerHour: createsPerHour(env),
    writeSpacingMs: writeSpacingMs(env),
  };
}

function integer(raw: string | undefined, fallback: number, min: number): number {
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value >= min ? value : fallback;
}
