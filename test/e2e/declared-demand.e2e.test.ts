import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewResult } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { missingWords } from '../../src/report/missing-words.js';
import { runReview } from '../../src/review/index.js';
import type { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { CHAT, KUEUE, POOLS, TRAIN } from '../helpers/prometheus/index.js';
import type { SimulatedPrometheus } from '../helpers/prometheus/index.js';
import { memoryChangeSet, type Tree } from '../memory-change-set.js';
import { clusterQueue, l4Pool } from './capacity-files.js';
import { startTwoDays, TWO_DAYS_MINUTES } from './two-days.js';

/**
 * Measured support for demand a pull request declares, on a real Prometheus holding the simulated
 * cluster: a job the PR adds counts once the GPUs its pods requested reach, at their peak and per
 * day, what it declares (generated sizes either side of the cluster's truth); a service counts once
 * its observed request rate meets a load test the base branch holds, not one the PR writes.
 */

let prom: SimulatedPrometheus;
let source: PrometheusSource;
let at: Date;

beforeAll(async () => {
  ({ prom, source, at } = await startTwoDays());
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

const chatLoadTest = readFileSync(new URL('../../fixtures/loadtests/guidellm-chat-l4.json', import.meta.url), 'utf8');

function train(gpus: number, runtime: string, jobsPerDay: number, selector = TRAIN.namespace): string {
  return `
  - name: train
    type: training
    queue: training
    gpusPerJob: ${gpus}
    jobsPerDay: ${jobsPerDay}
    runtime: ${runtime}
    window: { earliestStart: "00:00", deadline: "00:00" }
    selector: { namespace: ${selector} }`;
}

const chat = `
  - name: support-chat
    type: inference
    pool: ${POOLS.l4.name}
    gpusPerReplica: 1
    replicas: 8
    slo: { p95LatencyMs: 2000, ttftP95Ms: 500, errorRate: 0.01 }
    selector: { namespace: ${CHAT.namespace} }
    loadTest: loadtests/chat-l4.json`;

const queues = (training: number): Tree => ({
  'clusters/queues.yaml': `${clusterQueue('research', 4, KUEUE.cohort)}---\n${clusterQueue('training', training, KUEUE.cohort)}`,
});

async function review(base: Tree, head: Tree): Promise<ReviewResult> {
  return runReview({
    changes: memoryChangeSet(base, head),
    policy: { policy: { ...DEFAULT_POLICY, mode: 'enforce', window: TWO_DAYS_MINUTES }, diagnostics: [], file: null },
    telemetry: { source, at },
  });
}

const declared = (r: ReviewResult, name: string) => r.catalogDemand?.declared.find((d) => d.workload === name);
const lacks = (r: ReviewResult) => r.missingEvidence.filter((m) => 'code' in m && m.code === 'declared-demand');

describe('a job the pull request adds', () => {
  // The cluster's truth: the train pod holds 2 GPUs around the clock, 48 GPU-hours a day.
  const variants: { gpus: number; runtime: string; hours: number; jobsPerDay: number }[] = [];
  for (const gpus of [1, 2, 3, 4, 8, 64])
    for (const [runtime, hours] of [
      ['6h', 6],
      ['12h', 12],
      ['1d', 24],
    ] as const)
      for (const jobsPerDay of [1, 2]) if (hours * jobsPerDay <= 24) variants.push({ gpus, runtime, hours, jobsPerDay });

  it.each(variants)('of $gpus GPUs × $jobsPerDay × $runtime counts only when its pods measured as much', async (v) => {
    const base = { ...queues(4), 'gpu-workloads.yaml': 'workloads: []\n' };
    const head = { ...queues(4 + v.gpus), 'gpu-workloads.yaml': `workloads:${train(v.gpus, v.runtime, v.jobsPerDay)}\n` };

    const r = await review(base, head);

    const within = TRAIN.gpus >= 0.75 * v.gpus && TRAIN.gpus * 24 >= 0.75 * v.gpus * v.hours * v.jobsPerDay;
    const d = declared(r, 'train');
    expect(d?.change).toBe('added');
    if (within) {
      expect(d?.support).toMatchObject({ by: 'telemetry' });
      expect(d?.support?.by === 'telemetry' && d.support.peakGpus).toBeCloseTo(TRAIN.gpus, 1);
      expect(lacks(r)).toEqual([]);
      expect(r.reviews[0]?.workloads).toContain('train');
    } else {
      expect(d?.support).toBeNull();
      expect(lacks(r)).toHaveLength(1);
      expect(r.reviews[0]?.workloads ?? []).not.toContain('train');
    }
  });

  it('raised, is measured through the base entry’s selector, not one the pull request points at busier pods', async () => {
    const base = { ...queues(4), 'gpu-workloads.yaml': `workloads:${train(2, '1d', 1)}\n` };
    // The head claims 4 GPUs a run and points the selector at the eval pods, which hold 4 at night.
    const head = { ...queues(8), 'gpu-workloads.yaml': `workloads:${train(4, '6h', 1, 'eval')}\n` };

    const r = await review(base, head);

    expect(declared(r, 'train')).toMatchObject({ change: 'raised', support: null });
    expect(r.catalogDemand?.raised[0]?.fields).toEqual(expect.arrayContaining(['selector: changed', 'gpusPerJob: 2 → 4']));
  });
});

describe('a service the pull request adds', () => {
  const pools = { base: { 'pools/l4.yaml': l4Pool(4) }, head: { 'pools/l4.yaml': l4Pool(8) } };

  it('counts, sized from its observed peak, when the base branch holds its load test', async () => {
    const common = { 'loadtests/chat-l4.json': chatLoadTest };
    const r = await review(
      { ...pools.base, ...common, 'gpu-workloads.yaml': 'workloads: []\n' },
      { ...pools.head, ...common, 'gpu-workloads.yaml': `workloads:${chat}\n` },
    );

    expect(declared(r, 'support-chat')?.support).toMatchObject({ by: 'load-test', gpusNeeded: 2 });
    expect(lacks(r)).toEqual([]);
    // Sized at 2 replicas, not the 8 it declares: the raise to 8 is not needed.
    expect(r.verdict).toBe('not-justified');
  });

  it('does not count on a load test the pull request adds', async () => {
    const r = await review(
      { ...pools.base, 'gpu-workloads.yaml': 'workloads: []\n' },
      { ...pools.head, 'loadtests/chat-l4.json': chatLoadTest, 'gpu-workloads.yaml': `workloads:${chat}\n` },
    );

    expect(declared(r, 'support-chat')?.support).toBeNull();
    expect(lacks(r)).toHaveLength(1);
    const said = r.missingEvidence.map((m) => `${missingWords(m).what}: ${missingWords(m).how}`).join('\n');
    // Left out of the need: only a load test the base branch holds, or an approval, supports it.
    expect(said).toContain('a pull request cannot write the demand that justifies it');
    expect(said).toContain('a load test already on the base branch');
  });

  it('reads a load test the pull request edits as the base branch has it', async () => {
    // The PR's version says a replica carries 0.45 req/s: many more replicas than the base's says.
    const slower = JSON.stringify({
      request_rate: 0.5,
      request_throughput: 0.45,
      completed: 1000,
      failed: 0,
      p95_e2el_ms: 900,
      p95_ttft_ms: 60,
    });
    const r = await review(
      { ...pools.base, 'loadtests/chat-l4.json': chatLoadTest, 'gpu-workloads.yaml': 'workloads: []\n' },
      { ...pools.head, 'loadtests/chat-l4.json': slower, 'gpu-workloads.yaml': `workloads:${chat}\n` },
    );

    expect(declared(r, 'support-chat')?.support).toMatchObject({ by: 'load-test', gpusNeeded: 2 });
    const said = r.missingEvidence.map((m) => missingWords(m).what).join('\n');
    expect(said).toContain('load test loadtests/chat-l4.json as this pull request changes it');
  });
});
