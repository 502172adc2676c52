import { reviewChanges } from '../../src/analysis/review-change.js';
import { judgePr } from '../../src/analysis/review-pr.js';
import { uniqueMissing } from '../../src/analysis/missing.js';
import type {
  CapacityChange,
  Measurement,
  MeasureKey,
  MissingMeasurement,
  Policy,
  ReviewMeasurements,
  ReviewResult,
  ScopeId,
  Workload,
} from '../../src/domain/index.js';
import { answer, hourly, missing, repeat, row, telemetry } from '../analysis/measured-fixture.js';
import { batch, policy, queueChange, service } from '../factories.js';

/**
 * A whole review result from measured telemetry, assembled the way `runReview` does, but from
 * the analysis fixtures: no network, no Prometheus.
 */
function measuredResult(changes: CapacityChange[], workloads: Workload[], p: Policy, t: ReviewMeasurements | null): ReviewResult {
  const reviews = reviewChanges(
    changes.map((change) => ({ change, workloads, catalogFile: 'gpu-workloads.yaml', policy: p, telemetry: t })),
  );
  return {
    ...judgePr(changes, reviews),
    changes,
    reviews,
    findings: reviews.flatMap((r) => r.findings),
    missingEvidence: uniqueMissing(reviews.flatMap((r) => r.missingEvidence)),
    diagnostics: [],
    context: {
      mode: p.mode,
      headroom: p.headroom,
      catalogFile: 'gpu-workloads.yaml',
      catalogChangedInPr: false,
      policyChangedInPr: false,
      headSha: '0123456789abcdef0123456789abcdef01234567',
      ...(t === null ? {} : { telemetry: { source: t.source, at: t.at, windowMinutes: t.windowMinutes } }),
      baseLabel: 'base',
      headLabel: 'head',
    },
  };
}

/** A measure not taken, worded as the real ones are: what it measures and how to make it answer. */
function unanswered(key: MeasureKey, what: string, how: string): MissingMeasurement {
  return { ...missing(key), missing: { what: `${what}: nothing`, how } };
}

const HOW_DCGM = 'run NVIDIA dcgm-exporter (GPU Operator) with Kubernetes pod mapping and scrape it into this Prometheus';
const HOW_VLLM = "scrape the vLLM server's /metrics with labels matching the workload's selector";

const day = (on: number, gpus: number) => [...repeat(on, gpus), ...repeat(24 - on, 0)];
const twoDays = (on: number, gpus: number) => [...day(on, gpus), ...day(on, gpus)];

/** The ladder rungs of one workload: GPUs requested, busy %, SM (or GR engine) and tensor activity. */
function ladderOf(
  name: string,
  gpus: number[],
  busy: number,
  sm: number,
  opts: { field?: string; tensor?: number; dram?: number; verified?: number } = {},
): Measurement[] {
  const id: ScopeId = `workload:${name}`;
  const n = gpus.length;
  return [
    answer(`gpu-requests:${id}`, [hourly(gpus)]),
    answer(`gpu-busy-percent:${id}`, [hourly(repeat(n, busy))]),
    answer(`sm-activity:${id}`, [hourly(repeat(n, sm), { dcgm_field: opts.field ?? 'DCGM_FI_PROF_SM_ACTIVE' })]),
    answer(`tensor-activity:${id}`, [hourly(repeat(n, opts.tensor ?? sm / 2))]),
    answer(`dram-activity:${id}`, [hourly(repeat(n, opts.dram ?? 0.1))]),
    ...(opts.verified === undefined ? [] : [answer(`verified-outcomes:${id}`, [hourly([opts.verified])], 'instant')]),
  ];
}

const cohortQueue = (name: string, before: number, after: number) =>
  queueChange(name, before, after, {
    file: 'clusters/queues.yaml',
    after: {
      file: 'clusters/queues.yaml',
      line: 12,
      kind: 'kueue-cluster-queue',
      name,
      gpuModel: null,
      gpus: after,
      parts: [],
      cohort: 'ml',
    },
  });

const l4Pool = (before: number, after: number) =>
  queueChange('gpu-l4', before, after, { file: 'pools/l4.yaml', line: 14, kind: 'karpenter-nodepool', gpuModel: 'L4' });

const evalJob = (name = 'nightly-eval') =>
  batch({
    name,
    queue: 'research',
    jobsPerDay: 2,
    gpusPerJob: 2,
    runtime: 240,
    selector: { namespace: 'eval' },
    outcomes: { verified: 'v' },
  });

const slo = { p95LatencyMs: 2000, ttftP95Ms: 500, errorRate: 0.01 };
const chat = (name = 'support-chat', over: Partial<Parameters<typeof service>[0]> = {}) =>
  service({
    name,
    queue: undefined,
    pool: 'gpu-l4',
    model: 'llama-3.1-8b',
    replicas: 4,
    selector: { namespace: 'chat' },
    slo,
    loadTest: 'loadtests/chat-l4.json',
    quality: 0.9,
    qualityThreshold: 0.85,
    outcomes: { verified: 'v', total: 't' },
    ...over,
  });

const chatLoadTest = {
  'loadtests/chat-l4.json': {
    ok: true as const,
    value: { format: 'guidellm' as const, rows: [row(2.5, 1600), row(4.44, 1940, { label: 'constant at 4.5/s' }), row(6.2, 2880)] },
  },
};

/** Request rate, queue, batch slots and KV cache of a service whose batches are capped. */
function chatTelemetry(name: string): Measurement[] {
  const id: ScopeId = `workload:${name}`;
  return [
    ...ladderOf(name, repeat(48, 4), 60, 0.3, { verified: 600_000 }),
    answer(`total-outcomes:${id}`, [hourly([640_000])], 'instant'),
    answer(`request-rate:${id}`, [hourly([...repeat(24, 2), ...repeat(24, 4)])]),
    answer(`vllm-running:${id}`, [hourly([...repeat(20, 8), ...repeat(28, 16)])]),
    answer(`vllm-waiting:${id}`, [hourly([...repeat(40, 0), ...repeat(8, 5)])]),
    answer(`vllm-kv-cache:${id}`, [hourly(repeat(48, 0.4))]),
    answer(`vllm-preemptions:${id}`, [hourly([0])], 'instant'),
  ];
}

/** One review result per measured lever; each is the lever the scenario is named after. */
export const LEVER_SCENARIOS = {
  /** A queue grown 4 → 8 while a sister queue in its cohort leaves 2 GPUs unused; the runtime is off. */
  'borrow-quota': () =>
    measuredResult(
      [cohortQueue('research', 4, 8)],
      [evalJob()],
      policy(),
      telemetry([
        ...ladderOf('nightly-eval', twoDays(6, 4), 80, 0.6, { verified: 6 }),
        answer('queue-usage:queue:research', [hourly(twoDays(6, 4))]),
        answer('cohort-nominal-quota:queue:research', [
          hourly(repeat(48, 8), { cluster_queue: 'research' }),
          hourly(repeat(48, 4), { cluster_queue: 'training' }),
        ]),
        answer('cohort-usage:queue:research', [
          hourly(twoDays(6, 4), { cluster_queue: 'research' }),
          hourly(repeat(48, 2), { cluster_queue: 'training' }),
        ]),
        // Kueue v0.19 on: training's unset lendingLimit reads +Inf (clamped by the query).
        answer('cohort-lending-limit:queue:research', [hourly(repeat(48, 1e15), { cluster_queue: 'training' })]),
      ]),
    ),
  /** A training job holding 2 GPUs mostly idle and waiting on memory, next to a fine-tune. */
  'reclaim-idle': () =>
    measuredResult(
      [queueChange('training', 4, 6)],
      [
        batch({
          name: 'train',
          type: 'training',
          queue: 'training',
          gpusPerJob: 2,
          runtime: 1440,
          jobsPerDay: 1,
          window: { earliestStart: 0, deadline: 1440 },
          selector: { namespace: 'train' },
        }),
        batch({
          name: 'finetune',
          queue: 'training',
          gpusPerJob: 4,
          runtime: 120,
          jobsPerDay: 1,
          window: { earliestStart: 0, deadline: 360 },
          selector: { namespace: 'ft' },
        }),
      ],
      policy({ idleBelow: 0.35 }),
      telemetry([
        ...ladderOf('train', repeat(48, 2), 25, 0.1, { field: 'DCGM_FI_PROF_GR_ENGINE_ACTIVE', dram: 0.5, tensor: 0.02 }),
        ...ladderOf('finetune', twoDays(2, 4), 90, 0.7),
        answer('queue-usage:queue:training', [hourly(twoDays(2, 4).map((g) => g + 2))]),
      ]),
    ),
  /** A service sized from its load test whose requests queue behind a batch-slot cap. */
  batching: () => measuredResult([l4Pool(4, 8)], [chat()], policy(), telemetry(chatTelemetry('support-chat'), chatLoadTest)),
  /** The same service with a smaller model that meets quality and the SLO on one GPU. */
  'cheaper-model': () =>
    measuredResult(
      [l4Pool(4, 8)],
      [
        chat('support-chat', {
          alternatives: [
            { name: 'chat-3b', model: 'llama-3.2-3b', gpusPerReplica: 1, quality: 0.88, loadTest: 'loadtests/chat-3b.json' },
            { name: 'chat-1b', model: 'llama-3.2-1b', gpusPerReplica: 1, quality: 0.7, loadTest: 'loadtests/chat-3b.json' },
          ],
        }),
      ],
      policy({ prices: { ...policy().prices, L4: 0.85 } }),
      telemetry(chatTelemetry('support-chat'), {
        ...chatLoadTest,
        'loadtests/chat-3b.json': { ok: true, value: { format: 'vllm-bench', rows: [row(9.5, 1500)] } },
      }),
    ),
  /** Telemetry that answered only part of the questions: the checklist says which and how, grouped. */
  'partial-telemetry': () =>
    measuredResult(
      [queueChange('research', 4, 8)],
      [evalJob(), service({ name: 'chat', queue: 'research', replicas: 2, selector: { namespace: 'chat' }, slo })],
      policy(),
      telemetry([
        answer('gpu-requests:workload:nightly-eval', [hourly(twoDays(6, 4))]),
        unanswered('gpu-busy-percent:workload:nightly-eval', 'GPU utilisation of workload nightly-eval (DCGM_FI_DEV_GPU_UTIL)', HOW_DCGM),
        unanswered(
          'sm-activity:workload:nightly-eval',
          'SM activity of workload nightly-eval (DCGM_FI_PROF_SM_ACTIVE, else DCGM_FI_PROF_GR_ENGINE_ACTIVE)',
          `${HOW_DCGM}; enable DCGM_FI_PROF_SM_ACTIVE in its counters CSV for the finer measure`,
        ),
        unanswered(
          'verified-outcomes:workload:nightly-eval',
          'verified outcomes of nightly-eval (its outcomes.verified query)',
          'check the `outcomes.verified` PromQL of nightly-eval in the catalog',
        ),
        unanswered('request-rate:workload:chat', 'request rate of workload chat (vllm:request_success_total)', HOW_VLLM),
        unanswered(
          'gpu-requests:workload:chat',
          'GPUs requested by workload chat (kube_pod_container_resource_requests)',
          'scrape kube-state-metrics into this Prometheus; the selector must use namespace, pod or container to match its series',
        ),
      ]),
    ),
} as const;

/** Many measured workloads with hostile names in one queue: tables and bars must stay whole. */
export function manyMeasured(count: number, name: (i: number) => string): ReviewResult {
  const jobs = Array.from({ length: count }, (_, i) =>
    batch({
      name: name(i),
      queue: 'research',
      jobsPerDay: 1,
      gpusPerJob: 1,
      runtime: 60,
      selector: { namespace: `ns-${i}` },
      outcomes: { verified: 'v' },
    }),
  );
  const results = jobs.flatMap((j, i) => ladderOf(j.name, twoDays(1, 1), 20 + (i % 70), 0.2, { verified: i }));
  return measuredResult([queueChange('research', 4, 8)], jobs, policy(), telemetry(results));
}
