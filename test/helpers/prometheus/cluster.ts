/**
 * The simulated cluster's ground truth: every number the series carry comes from these
 * functions, so tests compare query answers with them rather than with copied constants.
 */

export const HOUR = 3_600;
export const DAY = 86_400;

/** Hour of the UTC day, fractional. */
export const hourOf = (t: number): number => (((t % DAY) + DAY) % DAY) / HOUR;

export const POOLS = {
  a100: { name: 'a100-pool', nodes: ['gpu-a-0', 'gpu-a-1'], model: 'NVIDIA A100-SXM4-80GB' },
  l4: { name: 'l4-pool', nodes: ['gpu-l-0'], model: 'NVIDIA L4' },
  h100: { name: 'h100-pool', nodes: ['gpu-h-0'], model: 'NVIDIA H100 80GB HBM3' },
} as const;
export const GPUS_PER_NODE = 4;
export const POOL_LABEL = 'karpenter.sh/nodepool';

/** Nightly eval: two 2-GPU jobs on gpu-a-0 from 00:00 to 06:00 UTC, in Kueue queue `research`. */
export const EVAL = {
  namespace: 'eval',
  queue: 'research',
  node: 'gpu-a-0',
  gpus: 4,
  active: (t: number) => hourOf(t) < 6,
  util: 80,
  smActive: 0.6,
  tensor: 0.4,
  dram: 0.3,
  fbUsed: 40_000,
  /** Per day: runs that passed and failed, counted when the jobs finish at 06:00. */
  passPerDay: 3,
  failPerDay: 1,
};

/** Training: one 2-GPU pod on gpu-a-1, always on, memory-bound; GPUs 2 and 3 are the notebook's. */
export const TRAIN = {
  namespace: 'train',
  queue: 'training',
  node: 'gpu-a-1',
  gpus: 2,
  util: 30,
  smActive: 0.2,
  tensor: 0.1,
  dram: 0.5,
  fbUsed: 20_000,
  /** Every n-th FB_USED sample of GPU 1 is DCGM's int64 blank. */
  blankEvery: 10,
};
// eslint-disable-next-line no-loss-of-precision -- DCGM's int64 blank as its exporter writes it; Prometheus reads the same float.
export const DCGM_INT64_BLANK = 9223372036854775794;

/**
 * An abandoned notebook in no catalog: it holds gpu-a-1's GPUs 2 and 3 (next to train) all
 * window at 1% busy, its model still loaded in their memory.
 */
export const NOTEBOOK = {
  namespace: 'notebooks',
  pod: 'jupyter-alice-0',
  node: 'gpu-a-1',
  /** The GPU indexes it holds on its node. */
  gpuIndexes: [2, 3],
  gpus: 2,
  util: 1,
  fbUsed: 30_000,
};

/**
 * The H100 pool's dcgm-exporter runs without Kubernetes pod mapping: its series name no pod,
 * though kube-state-metrics shows a pod requesting two of its GPUs.
 */
export const UNMAPPED = {
  node: 'gpu-h-0',
  namespace: 'legacy',
  pod: 'legacy-batch-0',
  gpus: 2,
  util: 50,
};

/** Chat service: four 1-GPU vLLM replicas on gpu-l-0 with a daily cycle (peak 12:00, valley 00:00). */
export const CHAT = {
  namespace: 'chat',
  node: 'gpu-l-0',
  model: 'llama-3.1-8b-instruct',
  pods: ['chat-0', 'chat-1', 'chat-2', 'chat-3'],
  /** 0 at 00:00 UTC, 1 at 12:00 UTC. */
  load: (t: number) => (1 - Math.cos((2 * Math.PI * hourOf(t)) / 24)) / 2,
  util: (t: number) => 20 + 60 * CHAT.load(t),
  grEngine: (t: number) => (0.9 * CHAT.util(t)) / 100,
  tensor: 0.25,
  dram: 0.4,
  fbUsed: 18_000,
  running: (t: number) => 2 + 6 * CHAT.load(t),
  waiting: (t: number) => (hourOf(t) >= 11 && hourOf(t) < 13 ? 3 : 0),
  kvCache: (t: number) => 0.2 + 0.5 * CHAT.load(t),
  /** Pods still on the old vLLM that export `vllm:gpu_cache_usage_perc` only. */
  oldKvName: ['chat-2', 'chat-3'],
  /** chat-0 exports both names (a deprecation window); the new name must win. */
  bothKvNames: 'chat-0',
  oldKvValueOnBoth: 0.99,
  /** Requests per second per pod, by finished_reason. */
  finished: { stop: 0.9, length: 0.08, abort: 0.02 },
  /** e2e latency: fraction of requests in each (lower, upper] bucket, seconds. */
  e2e: [
    { le: 1, share: 0.8 },
    { le: 1.5, share: 0.1 },
    { le: 5, share: 0.1 },
  ],
  ttft: [
    { le: 0.1, share: 0.9 },
    { le: 0.5, share: 0.1 },
  ],
  preemptionsPerHour: 1,
};
export const E2E_BUCKETS = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];
export const TTFT_BUCKETS = [
  0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560,
];

/** Kueue v0.16+: leader and follower both export every series; queries must not double count. */
export const KUEUE = {
  cohort: 'ml',
  flavor: 'a100',
  roles: ['leader', 'follower'],
  queues: {
    research: {
      nominal: 4,
      usage: (t: number) => (EVAL.active(t) ? EVAL.gpus : 0),
      // Reserved but not yet admitted in the hour before the nightly run.
      reservation: (t: number) => (EVAL.active(t) ? EVAL.gpus : hourOf(t) >= 23 ? 2 : 0),
      pendingActive: (t: number) => (hourOf(t) >= 22 ? 2 : 0),
      pendingInadmissible: 1,
    },
    training: {
      nominal: 4,
      usage: () => TRAIN.gpus,
      reservation: () => TRAIN.gpus,
      pendingActive: () => 0,
      pendingInadmissible: 0,
    },
  },
  /** Admission waits for `research`: per hour, this many workloads at each wait (seconds). */
  admissionWaits: [
    { seconds: 3, perHour: 9 },
    { seconds: 100, perHour: 1 },
  ],
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192],
};

/** Label values that try to break out of a selector. */
export const INJECTION = {
  hostile: 'eval"} or vector(1) or {x="',
  hostileValue: 42,
  plain: 'eval',
  plainValue: 7,
  escapes: 'a\\b\nc"d',
  escapesValue: 5,
};

/**
 * The q-quantile histogram_quantile gives when `shares` of the observations fall just under each
 * `le` of `buckets`: linear interpolation inside the bucket that holds the rank.
 */
export function bucketQuantile(q: number, shares: { le: number; share: number }[], buckets: number[]): number {
  let cum = 0;
  for (const b of shares) {
    if (cum + b.share >= q) {
      const lower = Math.max(0, ...buckets.filter((x) => x < b.le));
      return lower + ((b.le - lower) * (q - cum)) / b.share;
    }
    cum += b.share;
  }
  return Number.NaN;
}
