import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReview, ReviewResult } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { renderComment } from '../../src/report/comment.js';
import { runReview } from '../../src/review.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { HOUR, hourOf } from '../helpers/prometheus/index.js';
import type { RunningPrometheus } from '../helpers/prometheus/index.js';
import type { Family } from '../helpers/prometheus/openmetrics.js';
import { memoryChangeSet } from '../memory-change-set.js';
import { karpenterPool } from './capacity-files.js';
import { startTwoDaysOf } from './two-days.js';
import { missingWords } from '../../src/report/missing-words.js';

/**
 * A cluster as a team adopting gpu-justify might have it: kube-state-metrics names the L4 node by
 * its FQDN while dcgm-exporter reports the short host name, so no DCGM series joins the pool;
 * the chat service's load test never met its SLO.
 */
const NODE = 'ip-10-0-1-5.ec2.internal';
const SHORT_HOST = 'ip-10-0-1-5';
const POOL = 'l4-pool';
const PODS = ['chat-0', 'chat-1', 'chat-2', 'chat-3'];
const load = (t: number) => (1 - Math.cos((2 * Math.PI * hourOf(t)) / 24)) / 2;
/** Requests per second per pod, peaking at 12:00. */
const rate = (t: number) => 0.5 + 2 * load(t);

function cluster(start: number, end: number, step: number): Family[] {
  const times: number[] = [];
  for (let t = start; t <= end; t += step) times.push(t);
  const gauge = (labels: Record<string, string>, v: (t: number) => number) => ({
    name: '',
    labels,
    points: times.map((t): [number, number] => [t, v(t)]),
  });
  const counter = (labels: Record<string, string>) => {
    let total = 0;
    return {
      name: 'vllm:request_success_total',
      labels,
      points: times.map((t, i): [number, number] => [t, (total += i === 0 ? 0 : rate(t) * step)]),
    };
  };
  const named = (name: string, s: ReturnType<typeof gauge>) => ({ ...s, name });
  return [
    {
      name: 'kube_node_labels',
      type: 'gauge',
      series: [
        named(
          'kube_node_labels',
          gauge({ node: NODE, label_karpenter_sh_nodepool: POOL }, () => 1),
        ),
      ],
    },
    {
      name: 'kube_node_status_allocatable',
      type: 'gauge',
      series: [
        named(
          'kube_node_status_allocatable',
          gauge({ node: NODE, resource: 'nvidia_com_gpu', unit: 'integer' }, () => 4),
        ),
      ],
    },
    {
      name: 'kube_pod_container_resource_requests',
      type: 'gauge',
      series: PODS.map((pod) =>
        named(
          'kube_pod_container_resource_requests',
          gauge({ namespace: 'chat', pod, uid: pod, container: 'vllm', node: NODE, resource: 'nvidia_com_gpu', unit: 'integer' }, () => 1),
        ),
      ),
    },
    {
      name: 'DCGM_FI_DEV_GPU_UTIL',
      type: 'gauge',
      series: PODS.map((pod, gpu) =>
        named(
          'DCGM_FI_DEV_GPU_UTIL',
          gauge(
            {
              gpu: String(gpu),
              modelName: 'NVIDIA L4',
              Hostname: SHORT_HOST,
              exported_namespace: 'chat',
              exported_pod: pod,
              namespace: 'gpu-operator',
              pod: 'dcgm-exporter-x',
            },
            (t) => 30 + 50 * load(t),
          ),
        ),
      ),
    },
    {
      name: 'vllm:request_success',
      type: 'counter',
      series: PODS.map((pod) => counter({ namespace: 'chat', pod, finished_reason: 'stop' })),
    },
  ];
}

const pool = (gpus: number): string => karpenterPool(POOL, 'g6.12xlarge', gpus);

const catalog = [
  'workloads:',
  '  - name: chat',
  '    type: inference',
  `    pool: ${POOL}`,
  '    gpusPerReplica: 1',
  '    replicas: 4',
  '    slo: { p95LatencyMs: 2000, ttftP95Ms: 500 }',
  '    selector: { namespace: chat }',
  '    loadTest: loadtests/chat.jsonl',
  '',
].join('\n');
/** Even the lowest rate misses the 2-second p95. */
const loadTest = [
  { request_rate: 1, request_throughput: 1, completed: 100, failed: 0, p95_e2el_ms: 2500, p95_ttft_ms: 300 },
  { request_rate: 2, request_throughput: 2, completed: 100, failed: 0, p95_e2el_ms: 4000, p95_ttft_ms: 600 },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

let prom: RunningPrometheus;
let at: Date;

beforeAll(async () => {
  ({ prom, at } = await startTwoDaysOf(cluster));
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

async function review(url: string): Promise<ReviewResult> {
  const files = { 'gpu-workloads.yaml': catalog, 'loadtests/chat.jsonl': loadTest };
  return runReview({
    changes: memoryChangeSet({ ...files, 'pools/l4.yaml': pool(4) }, { ...files, 'pools/l4.yaml': pool(8) }),
    policy: { policy: { ...DEFAULT_POLICY, window: 2 * 24 * 60 }, diagnostics: [], file: null },
    telemetry: { source: new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: url }, { retries: 0 }), { minStepSeconds: 300 }), at },
  });
}

const only = (r: ReviewResult): ChangeReview => {
  expect(r.reviews).toHaveLength(1);
  return r.reviews[0]!;
};

describe('a review of a pool whose telemetry does not line up', () => {
  it('blames the host label, not pod mapping, when no DCGM series joins the pool', async () => {
    const r = only(await review(prom.url));
    // The workload's own series still answer: the exporter runs, with pod labels (exported_*).
    const chat = r.ladders?.find((l) => l.scope === 'workload' && l.name === 'chat');
    expect(chat?.busyFraction).toBeCloseTo(0.55, 2);
    const pools = r.missingEvidence.filter(
      (m) => missingWords(m).what.includes(`node pool ${POOL}`) || missingWords(m).what.includes(`idle pods in node pool ${POOL}`),
    );
    expect(pools.length).toBeGreaterThan(0);
    for (const m of pools) expect(missingWords(m).how).toContain('must be the Kubernetes node name');
    expect(r.missingEvidence.map((m) => missingWords(m).what)).toContain(
      `idle pods in node pool ${POOL}: pods there request GPUs, but no DCGM series is on its nodes`,
    );
  });

  it('says that no load-test step met the SLO, and at what rate the test began', async () => {
    const r = only(await review(prom.url));
    expect(r.serving?.[0]).toMatchObject({ workload: 'chat', sustainableRatePerReplica: null, gpusNeeded: null });
    // 4 pods at 2.5 req/s each at noon.
    expect(r.serving?.[0]?.peakRate).toBeCloseTo(4 * rate(12 * HOUR), 1);
    const lack = r.missingEvidence.find((m) => missingWords(m).what.startsWith('a load-test step of chat'));
    expect(missingWords(lack!).how).toMatch(/its lowest rate, 1 req\/s \(.*\), measured p95 2500 ms, TTFT p95 300 ms/);
    expect(r.confidence).toBe('medium');
  });

  it('lists an unreachable Prometheus once and rates the review as from the files alone', async () => {
    const result = await review('http://127.0.0.1:1');
    const r = only(result);
    expect(r.confidence).toBe('low');
    const prometheusLines = result.missingEvidence.filter((m) => missingWords(m).what.includes('127.0.0.1:1'));
    expect(prometheusLines).toHaveLength(1);
    expect(missingWords(prometheusLines[0]!).what).toMatch(
      /^every measurement from prometheus at http:\/\/127\.0\.0\.1:1: none of its \d+ queries was answered \(the first: .*unreachable/,
    );
    expect(missingWords(prometheusLines[0]!).how).toContain('PROMETHEUS_URL');
    expect(result.context.telemetry?.outage?.reason).toBe('unavailable');
    expect(renderComment(result)).toMatch(/\*\*Evidence: not measured:\*\* prometheus at .*127\.0\.0\.1:1 could not be reached/);
  });
});
