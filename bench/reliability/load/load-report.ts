/** What a load run is given and what it reports (bench/reliability/load). */
import type { StageFigures } from './replica-metrics.js';

export interface LoadOptions {
  deliveries: number;
  prs: number;
  concurrency: number;
  seed: number;
  /** Undefined: the App's own spacing (GPU_JUSTIFY_WRITE_SPACING_MS), 1,000 ms between writes and 3,000 ms between notifying ones. */
  writeSpacingMs?: number;
  /** The whole run, sending and draining, stops after this. */
  timeBudgetMs: number;
  /** App processes behind a round-robin proxy (default 1); a redelivery goes to another replica. */
  replicas?: number;
  /** Replicas share a real Redis (`REDIS_URL`). */
  redis?: boolean;
  /** Installations the pull requests are spread over (default 1): GitHub paces writes per installation. */
  installations?: number;
  /** Each fake GitHub answer waits this long (uniform between the two, ms); absent: at once. */
  latencyMs?: { min: number; max: number };
  /** SIGKILL the first replica once this share of the deliveries is sent (0 < kill < 1): its jobs must be finished by the others. */
  killAt?: number;
  /** The replicas' job lock (`GPU_JUSTIFY_JOB_LOCK_SECONDS`): how soon a dead replica's job is taken up. */
  lockSeconds?: number;
  /** Once the App's processes and Redis run, the bench's own threads (sender, fake GitHub) drop to this nice (priority.ts). */
  nice?: number;
  /** Each App process and Redis in a session of its own: their own scheduling group under Linux's autogroup, as containers have their own. */
  ownSessions?: boolean;
  log: (line: string) => void;
}

export interface LoadReport {
  options: Omit<LoadOptions, 'log'>;
  counts: Record<string, number>;
  sent: number;
  statuses: Record<string, number>;
  /** Webhook answers as the sender saw them: connection, the App's handling, and the sender's own waits. */
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  /** How late the bench's own event loop ran (the sender's and the fake GitHub's callbacks). */
  benchLoopDelayMs: { p99Ms: number; maxMs: number };
  /** The same answers as the App timed them (Probot's request log, `responseTime`), from request to response. */
  appLatencyMs: { p50: number; p95: number; p99: number; max: number; count: number };
  sendSeconds: number;
  /** From the last delivery sent to the last GitHub request the App made. */
  drainSeconds: number;
  drained: boolean;
  /** Reviews concluded (check runs completed) per second, from the first delivery to the last GitHub request. */
  reviewsPerSecond: number;
  /** Pull requests whose final head has no concluded check run, commands without a reaction, explain/help without a reply. */
  lostEvents: string[];
  duplicateReviewComments: string[];
  duplicateReplies: string[];
  staleFinalComments: string[];
  /** Review comments created beyond one per PR, those settled and deleted since included. */
  duplicateCommentsCreated: number;
  /** Check runs beyond one per head commit (a head is reviewed once, whatever asks again). */
  duplicateCheckRuns: number;
  /** Heads pushed but superseded by a newer push before any review began: never reviewed, as meant. */
  headsNeverReviewed: number;
  /** Deliveries a killed replica never answered, sent again to another (as an operator redelivers a failed one). */
  resent: number;
  killed: {
    pid: number;
    afterDeliveries: number;
    /** Jobs the killed replica was running (its /metrics just before the kill). */
    jobsRunning: number;
    /** Check runs in progress on GitHub at the kill, and how many of them ended concluded. */
    checksInProgress: number;
    checksConcludedSince: number;
  } | null;
  /** Content-creating or changing writes to GitHub as it saw them, per installation: their spacing and busiest minute, the worst installation's. */
  writes: { count: number; installations: number; minGapMs: number | null; p5GapMs: number | null; busiestMinute: number };
  /** The surviving replicas' queue counters from /metrics, summed; event-loop delay, the worst replica's. */
  queue: Record<string, number>;
  /** Each stage of the webhook's answer as the surviving replicas timed it (gpu_justify_webhook_stage_seconds). */
  webhookStages: Record<string, StageFigures>;
  /** The machine's 1-minute load average, sampled every 5 s from the first delivery to the drain's end. */
  loadAverage: { min: number; mean: number; max: number };
  checksInProgress: number;
  checkRuns: number;
  failedReviews: number;
  peakRssBytes: number | null;
  githubRequests: number;
  openApiChecked: number;
  openApiProblems: string[];
  unhandled: string[];
  serverExit: { code: number | null; signal: string | null } | null;
  replicas: number;
  redis: boolean;
  secretLeaks: string[];
}

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** How far apart one installation's writes reached GitHub, and the most in any 60 s; the worst installation's. */
export function writeSpacing(byInstallation: Map<number, number[]>): LoadReport['writes'] {
  const each = [...byInstallation.values()].map(installationWrites);
  const low = (values: (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null);
    return known.length > 0 ? Math.min(...known) : null;
  };
  return {
    count: each.reduce((n, w) => n + w.count, 0),
    installations: each.length,
    minGapMs: low(each.map((w) => w.minGapMs)),
    p5GapMs: low(each.map((w) => w.p5GapMs)),
    busiestMinute: Math.max(0, ...each.map((w) => w.busiestMinute)),
  };
}

function installationWrites(times: number[]): Omit<LoadReport['writes'], 'installations'> {
  const sorted = [...times].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((t, i) => t - (sorted[i] as number));
  gaps.sort((a, b) => a - b);
  let busiestMinute = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= 60_000) j++;
    busiestMinute = Math.max(busiestMinute, i - j + 1);
  }
  return { count: sorted.length, minGapMs: gaps[0] ?? null, p5GapMs: gaps.length > 0 ? quantile(gaps, 0.05) : null, busiestMinute };
}
