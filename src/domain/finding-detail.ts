/**
 * What a lever's finding found, as data: report/ words it (the JSON's `summary`). One code per
 * kind of sentence; the numbers and names each needs, nothing worded.
 */
export type FindingDetail =
  /** Staggering the runs lowers the peak from `naivePeak` to `peak`, or (`peak` = `naivePeak`) cannot. */
  | { code: 'stagger'; runs: number; peak: number; naivePeak: number }
  /** Documented runtimes that differ from the observed ones by more than `tolerance`. */
  | {
      code: 'runtime-off';
      tolerance: number;
      /** `pendingMinutes`: the mean wait Pending per run (queueing), when measured and a minute or more. */
      jobs: { workload: string; documentedMinutes: number; observedMinutes: number; pendingMinutes?: number }[];
    }
  /** A service sized from its load test at its observed peak, and what holds it back. */
  | { code: 'serving-size'; serving: ServingSize }
  /** An alternative that costs less per verified outcome, meets the quality threshold and the SLO. */
  | {
      code: 'cheaper-model';
      workload: string;
      option: string;
      usdPerVerifiedOutcome: number | null;
      currentUsdPerVerifiedOutcome: number | null;
      gpus: number | null;
      gpuType: string | null;
      /** The alternative runs on the change's GPU type (else elsewhere). */
      sameType: boolean;
      gpusFreed: number;
    }
  /** Idle allocations of catalog workloads and idle pods outside the catalog on the changed pool or queue. */
  | {
      code: 'reclaim-idle';
      target: string;
      gpusBefore: number;
      /** Catalog workloads whose allocation sat idle: GPUs held, declared (services), share busy. */
      idle: { workload: string; heldGpus: number; declaredGpus: number | null; busyFraction: number }[];
      /** Idle pods outside the catalog: the first few named, `podCount` in all. */
      pods: { namespace: string; pod: string; gpus: number; slices?: { profile: string; count: number }[]; busyFraction: number }[];
      podCount: number;
      podGpus: number;
      /** The need fits the GPUs there only once the pods are reclaimed. */
      relies: boolean;
      /** Catalog workloads whose selector names no namespace, so their pods may be among these. */
      unmatchable: string[];
      /** Share of the window a pod must hold GPUs to count (and hold them at its end). */
      heldMost: number;
      gpusFreed: number;
      need: number;
    }
  /**
   * Quota the cohort's other queues leave unused at the hours the queue is short (all day when it
   * is not), within their lendingLimits and its borrowingLimit, after the review's other queues in
   * the cohort drew theirs; and the queue's borrowingLimit at head (absent when unset).
   */
  | {
      code: 'borrow-quota';
      queue: string;
      cohort: string;
      /** GPUs it can borrow at every such hour. */
      gpus: number;
      /**
       * Each lender: the least it leaves free at any hour of the day, its lendingLimit (null when
       * unset) and where that was read (`unknown`: nothing tells it, so it lends nothing counted).
       */
      lenders: {
        queue: string;
        unused: number;
        lendingLimit?: number | null;
        limitFrom?: 'file' | 'metric' | 'file-and-metric' | 'unknown';
      }[];
      borrowingLimit?: number;
      /** What the verdict borrows at the worst hour; absent when it borrows nothing. */
      borrowed?: number;
      /** The borrowingLimit borrowing is bounded by (the base branch's, or Kueue's metric, the lower); absent when unset. */
      limitJudged?: number;
      /** What it could borrow at those hours without that limit; present when the limit binds. */
      withoutLimit?: number;
      /** The PR's other queues drawing on the same cohort's quota. */
      sharedWith?: string[];
    }
  /**
   * A service whose replicas each use a fraction of a GPU, put several to a GPU: on MIG-capable
   * GPUs each in the smallest MIG profile that holds its peak memory and compute (`mig`), on
   * others time-sliced as many to a GPU as their peaks add up within one (`time-slicing`).
   */
  | {
      code: 'mig' | 'time-slicing';
      workload: string;
      /** The GPU model as DCGM names it (`NVIDIA A100-SXM4-40GB`). */
      gpuModel: string;
      replicas: number;
      /** The MIG profile each replica fits (`1g.5gb`); null for time-slicing. */
      profile: string | null;
      /** Replicas one GPU holds so. */
      perGpu: number;
      /** GPUs the replicas hold today. */
      gpusNow: number;
      /** GPUs they need sliced, the service's headroom included. */
      gpusSliced: number;
      gpusFreed: number;
      /** The busiest replica's peaks over the window: framebuffer used, compute (share of the whole GPU) and GPU_UTIL. */
      peak: { memoryMiB: number; compute: number; computeField: string; busyPercent: number | null };
      /** What one slice holds: memory (GB, as a MIG profile's name states it), and its share of the GPU's compute. */
      slice: { memoryGB: number; computeShare: number };
    };

/** The numbers a service's sizing sentence needs: its size, without the evidence behind it. */
export interface ServingSize {
  workload: string;
  /** Requests per second one replica sustains within every SLO the catalog states; null when none does. */
  sustainableRatePerReplica: number | null;
  /** The load-test step that gave it (`constant@4.5`). */
  loadTestStep: string | null;
  /** Highest request rate the service carried over the window, requests per second. */
  peakRate: number | null;
  headroom: number;
  /** ceil(peak × (1 + headroom) ÷ sustainable rate); null when either is unknown. */
  replicasNeeded: number | null;
  /** replicasNeeded × GPUs per replica. */
  gpusNeeded: number | null;
  /** replicas × GPUs per replica as the catalog declares. */
  declaredGpus: number;
  /** What holds throughput back when requests queue: batch slots, KV-cache memory, or nothing seen. */
  limit: 'batching' | 'memory' | null;
  /** The statistics the limit is judged on; absent when no request waited. */
  limitStats?: ServingLimitStats;
}

/**
 * Medians over the samples where requests waited, which the limit is judged on: running requests
 * against the window's highest count (the cap), KV-cache usage (0–1), and the scheduler's
 * preemptions over the window (null when not exported).
 */
export interface ServingLimitStats {
  queuedSamples: number;
  runningMedian: number;
  runningCap: number;
  kvMedian: number;
  kvMax: number;
  preemptions?: number | null;
}

/** Why an alternative does not qualify. */
export type Shortfall =
  | { code: 'no-quality-threshold' }
  | { code: 'no-quality' }
  | { code: 'quality-under-threshold'; quality: number; threshold: number }
  | { code: 'load-test-misses-slo' }
  | { code: 'no-peak' }
  | { code: 'no-price'; gpuType: string | null };

/** What a cost's numbers rest on, or why an alternative does not qualify (the JSON's `note`). */
export type CostNote =
  | { code: 'opencost' }
  | { code: 'requested-gpu-hours'; gpuHours: number; usdPerGpuHour: number; mig: boolean }
  | { code: 'no-price' }
  | { code: 'no-gpu-hours' }
  | { code: 'alternative-sized'; replicas: number | null; sameType: boolean; gpuType: string | null }
  | { code: 'alternative-short'; shortfalls: Shortfall[] };
