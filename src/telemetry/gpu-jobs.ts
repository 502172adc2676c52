import type { JobGpus, MissingEvidence, ObservedGpuJobs } from '../domain/index.js';
import { withCircuitBreaker } from './circuit-breaker.js';
import type { TelemetryInput } from './collect.js';
import { evidenceOf, gatherEvidence, type TelemetryEvidence } from './gather.js';
import { jobRunsOf, podRunsOf } from './observations.js';
import {
  GPU_JOB_COMPLETIONS_FAMILY,
  GPU_JOB_POD_COMPLETIONS_FAMILY,
  GPU_JOB_POD_STARTS_FAMILY,
  GPU_JOB_STARTS_FAMILY,
  GPU_JOBS_FAMILY,
  gpuJobQueries,
} from './queries/gpu-jobs.js';
import type { QueryAnswer } from './source.js';

/**
 * The cluster's GPU Jobs from the answers to `gpuJobQueries`: their runs (from the Jobs' series,
 * else their pods') and the GPUs each requested. Null when no GPU Job was seen; what could not be
 * asked is in `missing`.
 */
function observedGpuJobs(evidence: TelemetryEvidence): { jobs: ObservedGpuJobs | null; missing: MissingEvidence[] } {
  const missing: MissingEvidence[] = [];
  const get = (family: string): QueryAnswer | undefined => {
    const r = evidence.results.find((x) => x.query.id === `${family}:cluster`);
    if (r?.status === 'ok') return r;
    if (r !== undefined && r.reason !== 'no-data') missing.push({ what: r.query.what, how: `${r.message}; ${r.query.how}` });
    return undefined;
  };
  const requested = get(GPU_JOBS_FAMILY);
  if (requested === undefined) return { jobs: null, missing };
  const gpus: JobGpus[] = requested.series.flatMap((s) => {
    const v = s.samples.at(-1)?.v;
    const job = s.labels['owner_name'];
    return v === undefined || !Number.isFinite(v) || v <= 0 || job === undefined
      ? []
      : [{ namespace: s.labels['namespace'] ?? '', job, gpus: v }];
  });
  const starts = get(GPU_JOB_STARTS_FAMILY);
  const podStarts = starts ? undefined : get(GPU_JOB_POD_STARTS_FAMILY);
  const runs = starts
    ? jobRunsOf(starts, get(GPU_JOB_COMPLETIONS_FAMILY))
    : podStarts
      ? podRunsOf(podStarts, get(GPU_JOB_POD_COMPLETIONS_FAMILY))
      : { runs: [], evidence: [] };
  return { jobs: { runs, gpus, gpuEvidence: [evidenceOf(requested)] }, missing };
}

export interface AskedGpuJobs {
  jobs: ObservedGpuJobs | null;
  missing: MissingEvidence[];
  /** Set when the source answered none of the queries: nothing was measured. */
  outage?: MissingEvidence;
  windowMinutes: number;
  /** The source asked, credentials removed. */
  source: string;
}

/** Asks the source for the cluster's GPU Jobs over the window (`windowMinutes` unless the input sets one). */
export async function askGpuJobs(input: TelemetryInput, windowMinutes: number): Promise<AskedGpuJobs> {
  const window = input.windowMinutes ?? windowMinutes;
  const evidence = await gatherEvidence(withCircuitBreaker(input.source), {
    workloads: [],
    scopes: [],
    at: input.at,
    windowMinutes: window,
    extra: gpuJobQueries({ windowMinutes: window }),
  });
  const { jobs, missing } = observedGpuJobs(evidence);
  return {
    jobs,
    missing,
    ...(evidence.outage === undefined ? {} : { outage: evidence.outage }),
    windowMinutes: window,
    source: input.source.description,
  };
}
