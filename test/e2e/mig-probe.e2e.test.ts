import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewResult } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { renderComment } from '../../src/report/comment.js';
import { runReview } from '../../src/review/index.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { isMigQuery, MIG_PRESENCE_ID } from '../../src/telemetry/queries/mig-presence.js';
import type { NamedQuery } from '../../src/telemetry/queries/named-query.js';
import type { TelemetrySource } from '../../src/telemetry/source.js';
import { DAY, EVAL, KUEUE, POOLS, startPrometheus } from '../helpers/prometheus/index.js';
import type { RunningPrometheus } from '../helpers/prometheus/index.js';
import { toOpenMetrics } from '../helpers/prometheus/openmetrics.js';
import { memoryChangeSet, type Tree } from '../memory-change-set.js';
import { asking, servedQueries } from '../telemetry/asking-source.js';
import { clusterQueue, karpenterPool, l4Pool } from './capacity-files.js';
import { MIG_POOL, PODS, simulateMigPool } from './mig-cluster.js';
import { startTwoDays, TWO_DAYS_MINUTES, type TwoDays } from './two-days.js';

const WINDOW = TWO_DAYS_MINUTES;

let plain: TwoDays;
let mig: RunningPrometheus;
let migSource: PrometheusSource;
let migAt: Date;

beforeAll(async () => {
  const end = Math.floor(Date.now() / 1000 / DAY) * DAY;
  let started: RunningPrometheus;
  [plain, started] = await Promise.all([
    startTwoDays(),
    startPrometheus(toOpenMetrics(simulateMigPool({ start: end - 2 * DAY, end, step: 300 }))),
  ]);
  mig = started;
  migSource = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: mig.url }, { retries: 0 }), { minStepSeconds: 300 });
  migAt = new Date(end * 1000);
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await Promise.all([plain?.prom.stop(), mig?.stop()]);
});

/** A PR growing the research queue and the L4 pool of the simulated cluster, with a job and a service on them. */
const plainPr = (() => {
  const catalog = `workloads:
  - name: nightly-eval
    type: batch
    queue: research
    gpusPerJob: 2
    jobsPerDay: 2
    runtime: 6h
    window: { earliestStart: "00:00", deadline: "06:00" }
    selector: { namespace: ${EVAL.namespace} }
  - name: support-chat
    type: inference
    pool: ${POOLS.l4.name}
    gpusPerReplica: 1
    replicas: 4
    selector: { namespace: chat }
`;
  const side = (research: number, l4: number): Tree => ({
    'gpu-workloads.yaml': catalog,
    'clusters/queues.yaml': `${clusterQueue('research', research, KUEUE.cohort)}---\n${clusterQueue('training', 4, KUEUE.cohort)}`,
    'pools/l4.yaml': l4Pool(l4),
  });
  return memoryChangeSet(side(4, 4), side(8, 8));
})();

/** A PR growing the MIG pool, with a workload on a 3g.40gb and one on a whole GPU. */
const migPr = (() => {
  const job = (name: string, namespace: string) => `  - name: ${name}
    type: training
    pool: ${MIG_POOL.name}
    gpusPerJob: 1
    runtime: 1d
    window: { earliestStart: "00:00", deadline: "00:00" }
    selector: { namespace: ${namespace} }
`;
  const catalog = `workloads:\n${job('infer', PODS.llm.namespace)}${job('train', PODS.train.namespace)}`;
  const side = (gpus: number): Tree => ({
    'gpu-workloads.yaml': catalog,
    'pools/gpu.yaml': karpenterPool(MIG_POOL.name, 'p4de.24xlarge', gpus),
  });
  return memoryChangeSet(side(6), side(8));
})();

async function review(changes: ReturnType<typeof memoryChangeSet>, source: TelemetrySource, at: Date): Promise<ReviewResult> {
  return runReview({
    changes,
    policy: { policy: { ...DEFAULT_POLICY, window: WINDOW }, diagnostics: [], file: null },
    telemetry: { source, at },
  });
}

/** The review, the queries it asked, and how many query requests Prometheus served for it. */
async function counted(
  prom: RunningPrometheus,
  changes: ReturnType<typeof memoryChangeSet>,
  inner: TelemetrySource,
  at: Date,
  failProbe = false,
) {
  const { source, asked } = asking(inner, { failProbe });
  const before = await servedQueries(prom.url);
  const result = await review(changes, source, at);
  return { result, asked, served: (await servedQueries(prom.url)) - before };
}

const ids = (qs: readonly NamedQuery[]) => qs.map((q) => q.id);

describe('the MIG queries are asked only of a cluster that has MIG devices', () => {
  it('a cluster without MIG gets one probe and no MIG query, and the same review as when they were asked', async () => {
    const lean = await counted(plain.prom, plainPr, plain.source, plain.at);
    expect(ids(lean.asked).filter((id) => id === MIG_PRESENCE_ID)).toHaveLength(1);
    expect(lean.asked.filter(isMigQuery)).toEqual([]);
    // Every query asked reached Prometheus once, the probe first.
    expect(lean.served).toBe(lean.asked.length);
    expect(lean.asked[0]?.id).toBe(MIG_PRESENCE_ID);

    // With the probe failing, the MIG queries are asked as they were before it (for the pool, the
    // queue and both workloads), and the review does not change by a byte.
    const full = await counted(plain.prom, plainPr, plain.source, plain.at, true);
    const migAsked = full.asked.filter(isMigQuery);
    expect(ids(migAsked).sort()).toEqual([
      'dcgm.mig-activity:pool:l4-pool',
      'dcgm.mig-activity:workload:nightly-eval',
      'dcgm.mig-activity:workload:support-chat',
      'dcgm.mig-pods:pool:l4-pool',
      'ksm.mig-requests:pool:l4-pool',
      'ksm.mig-requests:workload:nightly-eval',
      'ksm.mig-requests:workload:support-chat',
      'kueue.mig-usage:queue:research',
    ]);
    expect(full.served).toBe(lean.served - 1 + migAsked.length);
    expect(full.result).toEqual(lean.result);
    expect(renderComment(full.result)).toBe(renderComment(lean.result));
  });

  it('a MIG cluster gets the probe and then every MIG query, and reads its slices from them', async () => {
    const r = await counted(mig, migPr, migSource, migAt);
    expect(r.asked[0]?.id).toBe(MIG_PRESENCE_ID);
    expect(ids(r.asked.filter(isMigQuery)).sort()).toEqual([
      'dcgm.mig-activity:pool:mig-pool',
      'dcgm.mig-activity:workload:infer',
      'dcgm.mig-activity:workload:train',
      'dcgm.mig-pods:pool:mig-pool',
      'ksm.mig-requests:pool:mig-pool',
      'ksm.mig-requests:workload:infer',
      'ksm.mig-requests:workload:train',
    ]);
    expect(r.served).toBe(r.asked.length);
    const ladders = r.result.reviews[0]?.ladders ?? [];
    expect(ladders.find((l) => l.name === 'infer')?.allocatedGpuHours).toBeCloseTo((3 / 7) * (WINDOW / 60), 0);
    expect(ladders.find((l) => l.name === MIG_POOL.name)?.evidence.map((e) => e.ref)).toContainEqual(
      expect.stringMatching(/^MIG instances counted as whole-GPU equivalents/),
    );

    // A probe that fails asks the same queries and gives the same review.
    const unsure = await counted(mig, migPr, migSource, migAt, true);
    expect(ids(unsure.asked).sort()).toEqual(ids(r.asked).sort());
    expect(unsure.result).toEqual(r.result);
  });
});
