import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import type { ReviewResult } from '../../src/domain/index.js';
import { runReview } from '../../src/review/index.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import type { RunningPrometheus } from '../helpers/prometheus/index.js';
import type { Family } from '../helpers/prometheus/openmetrics.js';
import { memoryChangeSet } from '../memory-change-set.js';
import { karpenterPool } from './capacity-files.js';
import { startTwoDaysOf } from './two-days.js';
import { missingWords } from '../../src/report/missing-words.js';

/**
 * A cluster whose kube-state-metrics exporter writes NaN and +Inf for two samples in three of the
 * chat pods' GPU requests, while DCGM shows those pods idle.
 */
const NODE = 'gpu-node-1';
const POOL = 'l4-pool';
const PODS = ['chat-0', 'chat-1', 'chat-2', 'chat-3'];

function cluster(start: number, end: number, step: number): Family[] {
  const times: number[] = [];
  for (let t = start; t <= end; t += step) times.push(t);
  const series = (name: string, labels: Record<string, string>, v: (i: number) => number) => ({
    name,
    labels,
    points: times.map((t, i): [number, number] => [t, v(i)]),
  });
  const broken = (i: number) => (i % 3 === 0 ? Number.NaN : i % 3 === 1 ? Number.POSITIVE_INFINITY : 1);
  return [
    {
      name: 'kube_node_labels',
      type: 'gauge',
      series: [series('kube_node_labels', { node: NODE, label_karpenter_sh_nodepool: POOL }, () => 1)],
    },
    {
      name: 'kube_node_status_allocatable',
      type: 'gauge',
      series: [series('kube_node_status_allocatable', { node: NODE, resource: 'nvidia_com_gpu', unit: 'integer' }, () => 4)],
    },
    {
      name: 'kube_pod_container_resource_requests',
      type: 'gauge',
      series: PODS.map((pod) =>
        series(
          'kube_pod_container_resource_requests',
          { namespace: 'chat', pod, container: 'vllm', node: NODE, resource: 'nvidia_com_gpu', unit: 'integer' },
          broken,
        ),
      ),
    },
    {
      name: 'DCGM_FI_DEV_GPU_UTIL',
      type: 'gauge',
      series: PODS.map((pod, gpu) => series('DCGM_FI_DEV_GPU_UTIL', { gpu: String(gpu), Hostname: NODE, namespace: 'chat', pod }, () => 1)),
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
  '    selector: { namespace: chat }',
  '',
].join('\n');

let prom: RunningPrometheus;
let at: Date;

beforeAll(async () => {
  ({ prom, at } = await startTwoDaysOf(cluster));
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

async function review(): Promise<ReviewResult> {
  const files = { 'gpu-workloads.yaml': catalog };
  return runReview({
    changes: memoryChangeSet({ ...files, 'pools/l4.yaml': pool(4) }, { ...files, 'pools/l4.yaml': pool(8) }),
    policy: { policy: { ...DEFAULT_POLICY, window: 2 * 24 * 60 }, diagnostics: [], file: null },
    telemetry: {
      source: new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }), { minStepSeconds: 300 }),
      at,
    },
  });
}

describe('a review whose GPU requests are mostly NaN and +Inf', () => {
  it('lists each such query as missing, saying its samples were not finite, and credits nothing to it', async () => {
    const result = await review();
    const r = result.reviews[0]!;
    for (const id of ['ksm.gpu-requests:workload:chat', 'ksm.gpu-requests:pool:l4-pool']) {
      const line = r.missingEvidence.find((m) => missingWords(m).what.includes(id));
      expect(missingWords(line!).what, id).toMatch(
        new RegExp(`most samples were not finite \\(\\d+ of \\d+: \\d+ NaN, \\d+ infinite\\) for ${id.replace(/\./g, '\\.')}`),
      );
    }
    // Two samples in three thrown away must not read as one GPU held a third of the time.
    expect(r.ladders?.find((l) => l.scope === 'workload' && l.name === 'chat')?.allocatedGpuHours ?? null).toBeNull();
    expect(r.findings.find((f) => f.lever === 'reclaim-idle')).toBeUndefined();
    // Declared: 4 replicas + 20% headroom = 5 GPUs, over the 4 there.
    expect(r).toMatchObject({ verdict: 'partially-justified', need: 5, gpusNeeded: 1 });
  });
});
