import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReview, Policy, ReviewResult } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { renderComment } from '../../src/report/comment.js';
import { runReview } from '../../src/review/index.js';
import type { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { EVAL, NOTEBOOK, POOLS, TRAIN, UNMAPPED } from '../helpers/prometheus/index.js';
import type { SimulatedPrometheus } from '../helpers/prometheus/index.js';
import { memoryChangeSet } from '../memory-change-set.js';
import { karpenterPool } from './capacity-files.js';
import { startTwoDays, TWO_DAYS_MINUTES } from './two-days.js';
import { findingText } from '../../src/report/findings.js';
import { missingWords } from '../../src/report/missing-words.js';

let prom: SimulatedPrometheus;
let source: PrometheusSource;
let at: Date;
const WINDOW = TWO_DAYS_MINUTES;

beforeAll(async () => {
  ({ prom, source, at } = await startTwoDays({ minStepSeconds: 300 }));
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

/** train is the only catalog workload in the A100 pool; eval and the notebook are not documented. */
const catalog = (pool: string) => `workloads:
  - name: train
    type: training
    pool: ${pool}
    gpusPerJob: ${TRAIN.gpus}
    runtime: 1d
    window: { earliestStart: "00:00", deadline: "00:00" }
    selector: { namespace: ${TRAIN.namespace} }
`;

async function review(
  pool: string,
  instanceType: string,
  before: number,
  after: number,
  over: Partial<Policy> = {},
): Promise<ReviewResult> {
  const common = { 'gpu-workloads.yaml': catalog(pool) };
  return runReview({
    changes: memoryChangeSet(
      { ...common, 'pools/gpu.yaml': karpenterPool(pool, instanceType, before) },
      { ...common, 'pools/gpu.yaml': karpenterPool(pool, instanceType, after) },
    ),
    policy: { policy: { ...DEFAULT_POLICY, window: WINDOW, ...over }, diagnostics: [], file: null },
    telemetry: { source, at },
  });
}

const only = (r: ReviewResult): ChangeReview => {
  expect(r.reviews).toHaveLength(1);
  return r.reviews[0]!;
};
const reclaim = (r: ChangeReview) => r.findings.find((f) => f.lever === 'reclaim-idle');

describe('reclaiming idle GPUs of pods outside the catalog, on a real Prometheus', () => {
  it('finds the abandoned notebook with its GPUs, and not the busy or short-lived pods', async () => {
    const result = await review(POOLS.a100.name, 'p4de.24xlarge', 8, 12);
    const r = only(result);
    // The notebook held its 2 GPUs all window at 1%; eval's pods are busy and hold GPUs 6 h a day;
    // train-0 is the catalog's train.
    expect(r.idlePods?.map((p) => [`${p.namespace}/${p.pod}`, p.gpus])).toEqual([[`${NOTEBOOK.namespace}/${NOTEBOOK.pod}`, NOTEBOOK.gpus]]);
    const [nb] = r.idlePods!;
    expect(nb!.busyFraction).toBeCloseTo(NOTEBOOK.util / 100, 6);
    expect(nb!.heldFraction).toBe(1);
    expect(nb!.evidence[0]).toMatchObject({ source: 'prometheus', window: `${WINDOW}m to ${at.toISOString()}` });
    expect(nb!.evidence[0]!.ref).toContain('label_karpenter_sh_nodepool="a100-pool"');
    // train needs 2 GPUs (+20% → 3) of the 8 there, so the verdict does not rest on the notebook.
    expect(r).toMatchObject({ verdict: 'not-justified', need: 3 });
    expect(reclaim(r)).toMatchObject({ gpusFreed: NOTEBOOK.gpus, meetsNeed: false });
    expect(findingText(reclaim(r)!)).toContain(`${NOTEBOOK.namespace}/${NOTEBOOK.pod} (2 GPUs, busy 1%)`);
    expect(r.missingEvidence).toEqual([]);

    const comment = renderComment(result);
    expect(comment).toContain('Idle pods outside the catalog in a100-pool: 1 holding 2 GPUs');
    expect(comment).toMatch(new RegExp(`\\| ${NOTEBOOK.namespace}/${NOTEBOOK.pod} +\\| 2 +\\| 1% +\\| 100% +\\|`));
  });

  it('adds them to an idle catalog job without counting its pod twice', async () => {
    // At idleBelow 35% train (30% busy) is idle too: its 2 GPUs come through its ladder, and its
    // pod, though idle by the same rule, is not listed again.
    const r = only(await review(POOLS.a100.name, 'p4de.24xlarge', 8, 12, { idleBelow: 0.35 }));
    expect(r.ladders?.find((l) => l.name === 'train')?.flags.map((f) => f.kind)).toContain('idle');
    expect(r.idlePods?.map((p) => p.pod)).toEqual([NOTEBOOK.pod]);
    expect(reclaim(r)).toMatchObject({ gpusFreed: TRAIN.gpus + NOTEBOOK.gpus });
    expect(findingText(reclaim(r)!)).toContain('train (2 GPUs, busy 30%)');
    // eval's pods run at 80% and hold GPUs a quarter of the day: never idle pods.
    expect(r.idlePods?.some((p) => p.namespace === EVAL.namespace)).toBe(false);
  });

  it('says the DCGM pod mapping is missing when pods request GPUs but no series names a pod', async () => {
    const r = only(await review(POOLS.h100.name, 'p5.48xlarge', 4, 8));
    expect(r.idlePods).toBeUndefined();
    expect(reclaim(r)).toBeUndefined();
    const lack = r.missingEvidence.find((m) => missingWords(m).what.startsWith('idle pods in node pool h100-pool'));
    expect(missingWords(lack!).how).toContain('`--kubernetes`');
    expect(missingWords(lack!).how).toContain('DCGM_EXPORTER_KUBERNETES=true');
    expect(r.confidence).toBe('medium');
    // The pod there is real: kube-state-metrics sees its request.
    const pool = r.ladders?.find((l) => l.scope === 'pool');
    expect(pool?.allocatedGpuHours).toBeCloseTo(UNMAPPED.gpus * (WINDOW / 60), -1);
  });
});
