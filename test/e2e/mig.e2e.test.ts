import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReview, Policy, ReviewResult, UtilisationLadder } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { renderComment } from '../../src/report/comment.js';
import { runReview } from '../../src/review/index.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { DAY, startPrometheus } from '../helpers/prometheus/index.js';
import type { RunningPrometheus } from '../helpers/prometheus/index.js';
import { toOpenMetrics } from '../helpers/prometheus/openmetrics.js';
import { memoryChangeSet } from '../memory-change-set.js';
import { MIG_POOL, MIG_QUEUE, PODS, simulateMigPool } from './mig-cluster.js';
import { Measured } from '../../src/analysis/measured.js';
import { capacityLadder } from '../../src/analysis/ladder.js';
import { gatherEvidence } from '../../src/telemetry/gather.js';
import { toMeasurements } from '../../src/telemetry/measure/to-measurements.js';
import { karpenterPool } from './capacity-files.js';
import { findingText } from '../../src/report/findings.js';
import { missingWords } from '../../src/report/missing-words.js';

const WINDOW = 2 * 24 * 60;
const HOURS = WINDOW / 60;
/**
 * What sampling adds at `perHour` GPU equivalents: the range holds one 5-minute sample more than
 * the window, and a series that stops is still seen for one lookback after it.
 */
const sampling = (perHour: number) => 2 * perHour * (5 / 60);
/** Hours a day the nightly etl pod holds its 2g.20gb, over the window. */
const NIGHT_HOURS = 6 * (HOURS / 24);

let full: RunningPrometheus;
let blind: RunningPrometheus;
let at: Date;

beforeAll(async () => {
  const end = Math.floor(Date.now() / 1000 / DAY) * DAY;
  const w = { start: end - 2 * DAY, end, step: 300 };
  [full, blind] = await Promise.all([
    startPrometheus(toOpenMetrics(simulateMigPool(w))),
    startPrometheus(toOpenMetrics(simulateMigPool(w, { profiling: false }))),
  ]);
  at = new Date(end * 1000);
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await Promise.all([full?.stop(), blind?.stop()]);
});

const nodePool = (gpus: number): string => karpenterPool(MIG_POOL.name, 'p4de.24xlarge', gpus);

/** infer runs on a 3g.40gb (mixed strategy), sweep on three single-strategy 1g.10gb, train on a whole GPU; each all day. */
const catalog = `workloads:
  - name: infer
    type: training
    pool: ${MIG_POOL.name}
    gpusPerJob: 1
    runtime: 1d
    window: { earliestStart: "00:00", deadline: "00:00" }
    selector: { namespace: ${PODS.llm.namespace} }
  - name: sweep
    type: training
    pool: ${MIG_POOL.name}
    gpusPerJob: 3
    runtime: 1d
    window: { earliestStart: "00:00", deadline: "00:00" }
    selector: { namespace: ${PODS.sweep.namespace} }
  - name: train
    type: training
    pool: ${MIG_POOL.name}
    gpusPerJob: 1
    runtime: 1d
    window: { earliestStart: "00:00", deadline: "00:00" }
    selector: { namespace: ${PODS.train.namespace} }
`;

async function review(prom: RunningPrometheus, over: Partial<Policy> = {}): Promise<ReviewResult> {
  const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }), { minStepSeconds: 300 });
  const common = { 'gpu-workloads.yaml': catalog };
  return runReview({
    changes: memoryChangeSet({ ...common, 'pools/gpu.yaml': nodePool(6) }, { ...common, 'pools/gpu.yaml': nodePool(8) }),
    policy: { policy: { ...DEFAULT_POLICY, window: WINDOW, ...over }, diagnostics: [], file: null },
    telemetry: { source, at },
  });
}

const only = (r: ReviewResult): ChangeReview => {
  expect(r.reviews).toHaveLength(1);
  return r.reviews[0]!;
};
const ladderOf = (r: ChangeReview, name: string): UtilisationLadder => r.ladders!.find((l) => l.name === name)!;

describe('a pool of MIG-partitioned A100s, on a real Prometheus', () => {
  it('counts allocated and busy GPU-hours in whole-GPU equivalents, each instance by its profile', async () => {
    const r = only(await review(full));
    // Held all window: train and nb-carol one whole GPU each; llm 3g.40gb = 3/7; nb-bob 2 × 1g.10gb = 2/7;
    // sweep 3 single-strategy 1g.10gb = 3/7 (kube-state-metrics calls them 3 nvidia.com/gpu); nb-dan 1/7.
    // Nightly, 6 h a day: etl's 2g.20gb = 2/7.
    const always = 1 + 1 + 3 / 7 + 2 / 7 + 3 / 7 + 1 / 7;
    const pool = ladderOf(r, MIG_POOL.name);
    expect(Math.abs(pool.allocatedGpuHours! - (always * HOURS + (2 / 7) * NIGHT_HOURS))).toBeLessThanOrEqual(sampling(always + 2 / 7));
    // Busy: GPU_UTIL on the whole GPUs (70% and 2%), GR-engine activity × share on instances.
    const busyPerHour = 0.7 + 0.02 + (0.6 * 3) / 7 + (2 * 0.01) / 7 + (3 * 0.4) / 7;
    expect(Math.abs(pool.busyGpuHours! - (busyPerHour * HOURS + ((0.5 * 2) / 7) * NIGHT_HOURS))).toBeLessThanOrEqual(
      sampling(busyPerHour + 1 / 7),
    );
    expect(pool.computeField).toBe('DCGM_FI_PROF_GR_ENGINE_ACTIVE');
    expect(pool.evidence.map((e) => e.ref)).toContainEqual(
      expect.stringMatching(
        /^MIG instances counted as whole-GPU equivalents: 1g\.10gb = 1\/7 GPU, 2g\.20gb = 2\/7 GPU, 3g\.40gb = 3\/7 GPU/,
      ),
    );
    expect(pool.evidence.every((e) => e.source !== 'prometheus' || e.window === `${WINDOW}m to ${at.toISOString()}`)).toBe(true);

    const infer = ladderOf(r, 'infer');
    expect(infer.allocatedGpuHours!).toBeCloseTo((3 / 7) * HOURS, 0);
    expect(infer.busyFraction!).toBeCloseTo(PODS.llm.activity, 6);
    expect(infer.tensorGpuHours! / infer.allocatedGpuHours!).toBeCloseTo(PODS.llm.activity / 2, 6);
    // Single strategy: 3 nvidia.com/gpu on a sliced node are 3/7 of a GPU, not 3 GPUs.
    const sweep = ladderOf(r, 'sweep');
    expect(sweep.allocatedGpuHours!).toBeCloseTo((3 / 7) * HOURS, 0);
    expect(sweep.busyFraction!).toBeCloseTo(PODS.sweep.activity, 6);
    // A whole GPU keeps its whole-GPU ladder.
    const train = ladderOf(r, 'train');
    expect(train.allocatedGpuHours!).toBeCloseTo(HOURS, 0);
    expect(train.busyFraction!).toBeCloseTo(PODS.train.activity, 6);
    expect(train.evidence.some((e) => e.ref.startsWith('MIG instances'))).toBe(false);
    // Runtimes count devices, as gpusPerJob does: one 3g.40gb, three 1g.10gb, one GPU, each all day.
    expect(r.runtimes?.map((c) => [c.workload, Math.round(c.observedMinutes / 60)])).toEqual([
      ['infer', 24],
      ['sweep', 24],
      ['train', 24],
    ]);
    expect(r.missingEvidence).toEqual([]);
  });

  it('lists idle MIG instances as the slices they are, never as whole GPUs', async () => {
    const result = await review(full);
    const r = only(result);
    // nb-carol: a whole GPU at 2%; nb-bob: two 1g.10gb at 1%; nb-dan: one single-strategy 1g.10gb at 0%,
    // which the whole-GPU query alone would take for one GPU. sweep-0 (busy 40%) is sweep's, and
    // would otherwise show as three idle GPUs from the GPU_UTIL of 0 the exporter writes on instances.
    expect(r.idlePods?.map((p) => [`${p.namespace}/${p.pod}`, p.gpus, p.slices ?? null])).toEqual([
      ['notebooks/nb-carol', 1, null],
      ['notebooks/nb-bob', 2 / 7, [{ profile: '1g.10gb', count: 2 }]],
      ['notebooks/nb-dan', 1 / 7, [{ profile: '1g.10gb', count: 1 }]],
    ]);
    const bob = r.idlePods!.find((p) => p.pod === PODS.nbBob.pod)!;
    expect(bob.busyFraction).toBeCloseTo(PODS.nbBob.activity, 6);
    expect(bob.heldFraction).toBe(1);
    const reclaim = r.findings.find((f) => f.lever === 'reclaim-idle')!;
    expect(reclaim.gpusFreed).toBeCloseTo(1 + 3 / 7, 12);
    expect(findingText(reclaim)).toContain('Idle pods outside the catalog hold 1.43 GPUs of mig-pool');
    expect(findingText(reclaim)).toContain('notebooks/nb-bob (2× 1g.10gb = 0.286 GPU, busy 1%)');
    expect(reclaim.evidence.map((e) => e.ref)).toContainEqual(expect.stringContaining('GPU_I_PROFILE!=""'));

    const comment = renderComment(result);
    expect(comment).toContain('Idle pods outside the catalog in mig-pool: 3 holding 1.43 GPUs');
    expect(comment).toMatch(/\| notebooks\/nb-bob +\| 0\.286 \(2× 1g\.10gb\) +\| 1% +\| 100% +\|/);
    expect(comment).toMatch(/\| notebooks\/nb-carol +\| 1 +\| 2% +\| 100% +\|/);
  });

  it('says which DCGM field is missing when the exporter has no profiling fields for the instances', async () => {
    const r = only(await review(blind));
    const pool = ladderOf(r, MIG_POOL.name);
    // Allocation is kube-state-metrics' and still known; busy-ness of the slices is not.
    expect(pool.allocatedGpuHours).not.toBeNull();
    expect(pool.busyGpuHours).toBeNull();
    expect(pool.busyFraction).toBeNull();
    expect(ladderOf(r, 'infer').busyGpuHours).toBeNull();
    const lack = r.missingEvidence.find((m) =>
      missingWords(m).what.startsWith(`busy-ness of the MIG instances of node pool ${MIG_POOL.name}`),
    );
    expect(missingWords(lack!).how).toContain('DCGM_FI_PROF_GR_ENGINE_ACTIVE');
    expect(missingWords(lack!).how).toContain('DCGM_FI_DEV_GPU_UTIL is not reported for MIG instances');
    // The GPU_UTIL of 0 on instances is never taken for an idle slice.
    expect((r.idlePods ?? []).filter((p) => p.pod === PODS.nbDan.pod || p.pod === PODS.sweep.pod)).toEqual([]);
    expect(r.confidence).toBe('medium');
  });

  it("counts a ClusterQueue's admitted MIG devices as their share of a GPU", async () => {
    const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: full.url }, { retries: 0 }), { minStepSeconds: 300 });
    const scope = { kind: 'queue' as const, name: MIG_QUEUE.name };
    const evidence = await gatherEvidence(source, { workloads: [], scopes: [scope], at, windowMinutes: WINDOW });
    const m = new Measured(
      toMeasurements({
        source: source.description,
        at: at.toISOString(),
        windowMinutes: WINDOW,
        evidence,
        loadTests: new Map(),
        allocation: null,
        missing: evidence.missing,
        loadTestNotes: [],
      }),
    );
    const change = {
      file: 'q.yaml',
      line: 1,
      kind: 'kueue-cluster-queue' as const,
      name: MIG_QUEUE.name,
      gpuModel: null,
      gpusBefore: 1,
      gpusAfter: 2,
      delta: 1,
    };
    const l = capacityLadder(change, m, [], 0, { ...DEFAULT_POLICY, window: WINDOW })!;
    // One 3g.40gb admitted all window (leader and follower both export it): 3/7 of a GPU.
    expect(Math.abs(l.allocatedGpuHours! - (3 / 7) * HOURS)).toBeLessThanOrEqual(sampling(3 / 7));
    expect(l.evidence.map((e) => e.ref)).toContainEqual(expect.stringContaining('3g.40gb = 3/7 GPU'));
    // No nvidia.com/gpu usage is no gap when the queue's quota is in MIG devices.
    expect(m.missing().filter((x) => missingWords(x).what.startsWith('admitted usage'))).toEqual([]);
  });
});
