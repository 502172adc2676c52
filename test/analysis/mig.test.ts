import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { idlePods, podMeasureKey } from '../../src/analysis/idle-pods.js';
import { capacityLadder, workloadLadder } from '../../src/analysis/ladder.js';
import { measureMigPods, migPodMeasureKey } from '../../src/analysis/mig-pods.js';
import { idleHolders } from '../../src/analysis/reclaim.js';
import { podHeldText } from '../../src/report/findings.js';
import { observedRuntime } from '../../src/analysis/runtime-check.js';
import type { CapacityChange, Measurement, MeasuredSeries, ScopeId } from '../../src/domain/index.js';
import { batch, policy, queueChange } from '../factories.js';
import { AT, STEP, answer, hourly, measured, missing, repeat } from './measured-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';

// 48 hourly points: a point stands for one hour.
const T0 = Date.parse(AT) / 1000 - 48 * STEP;
const A100 = 'NVIDIA A100-SXM4-80GB';
const w = batch({ name: 'job', selector: { namespace: 'ns' }, gpusPerJob: 2, runtime: 1440, jobsPerDay: 1 });
const id: ScopeId = 'workload:job';
const inst = (profile: string, measure: string, values: number[]) => hourly(values, { GPU_I_PROFILE: profile, modelName: A100, measure });
const whole = (measure: string, values: number[]) => hourly(values, { measure });
const mixed = (resource: string, measure: string, values: number[]) => hourly(values, { resource, measure });
const half = (a: number, b: number) => [...repeat(24, a), ...repeat(24, b)];

describe('the ladder of a workload on MIG instances', () => {
  // Two 3g.40gb for 24 h, then one: 24 × 6/7 + 24 × 3/7 = 216/7 GPU-hours. GR-engine activity
  // sums to 1.0 then 0.5 (each instance at 50%): busy 24 × 3/7 + 24 × 1.5/7 = 108/7.
  const mixedJob: Measurement[] = [
    missing(`gpu-requests:${id}`),
    answer(`mig-requests:${id}`, [mixed('nvidia_com_mig_3g_40gb', 'requested', half(2, 1))]),
    answer(`mig-activity:${id}`, [
      inst('3g.40gb', 'slices', half(2, 1)),
      inst('3g.40gb', 'gr', half(1, 0.5)),
      inst('3g.40gb', 'tensor', half(0.4, 0.2)),
    ]),
  ];

  it('counts each instance as its share of a GPU, busy from GR-engine activity', () => {
    const m = measured(mixedJob);
    const l = workloadLadder(w, m, policy())!;
    expect(l.allocatedGpuHours).toBeCloseTo(216 / 7, 9);
    expect(l.busyGpuHours).toBeCloseTo(108 / 7, 9);
    expect(l.busyFraction).toBeCloseTo(0.5, 9);
    // No SM activity per instance: the GR engine stands in, and says so.
    expect(l).toMatchObject({ computeField: 'DCGM_FI_PROF_GR_ENGINE_ACTIVE' });
    expect(l.computingGpuHours).toBeCloseTo(108 / 7, 9);
    expect(l.tensorGpuHours).toBeCloseTo((24 * 0.4 * 3 + 24 * 0.2 * 3) / 7, 9);
    // The missing nvidia.com/gpu series only means no whole GPU: not missing evidence.
    expect(m.missing()).toEqual([]);
    const refs = l.evidence.map((e) => e.ref);
    expect(refs).toEqual([
      `q(dcgm.mig-activity:${id})`,
      `q(ksm.mig-requests:${id})`,
      expect.stringMatching(
        /^MIG instances counted as whole-GPU equivalents: 3g\.40gb = 3\/7 GPU \(.*7 \(A100, H100, H200, B200\) is assumed/,
      ),
    ]);
    expect(l.evidence.every((e) => e.window === `${48 * 60}m to ${AT}`)).toBe(true);
  });

  it('takes single-strategy slices out of the nvidia.com/gpu count and adds them back as their share', () => {
    // 3 nvidia.com/gpu, all 1g.10gb slices on a single-strategy node, plus 1 whole GPU elsewhere:
    // (4 − 3 + 3/7) × 48 GPU-hours. Busy: the whole GPU at 60%, the slices' GR-engine summing to 0.9.
    const m = measured([
      answer(`gpu-requests:${id}`, [hourly(repeat(48, 4))]),
      answer(`mig-requests:${id}`, [inst('1g.10gb', 'single-requested', repeat(48, 3))]),
      answer(`mig-activity:${id}`, [
        inst('1g.10gb', 'slices', repeat(48, 3)),
        inst('1g.10gb', 'gr', repeat(48, 0.9)),
        inst('1g.10gb', 'sm', repeat(48, 0.6)),
        whole('whole-busy', repeat(48, 0.6)),
        whole('whole-sm', repeat(48, 0.5)),
      ]),
    ]);
    const l = workloadLadder(w, m, policy())!;
    expect(l.allocatedGpuHours).toBeCloseTo((1 + 3 / 7) * 48, 9);
    expect(l.busyGpuHours).toBeCloseTo((0.6 + 0.9 / 7) * 48, 9);
    expect(l.computingGpuHours).toBeCloseTo((0.5 + 0.6 / 7) * 48, 9);
    expect(l.computeField).toBe('DCGM_FI_PROF_SM_ACTIVE');
    expect(l.evidence.at(-1)!.ref).toContain(
      '1g.10gb = 1/7 GPU (compute slices of the profile over the slices of the GPU model DCGM names)',
    );
  });

  it('leaves busy unknown, and says which metric would tell, when DCGM shows no instance activity', () => {
    const m = measured([
      missing(`gpu-requests:${id}`),
      answer(`mig-requests:${id}`, [mixed('nvidia_com_mig_1g_10gb', 'requested', repeat(48, 2))]),
      missing(`mig-activity:${id}`),
    ]);
    const l = workloadLadder(w, m, policy())!;
    expect(l.allocatedGpuHours).toBeCloseTo((2 / 7) * 48, 9);
    expect(l).toMatchObject({ busyGpuHours: null, busyFraction: null, computingGpuHours: null, computeField: null });
    expect(m.missing().map((x) => missingWords(x))).toEqual([
      expect.objectContaining({
        what: 'busy-ness of the MIG instances of workload job: no DCGM_FI_PROF_GR_ENGINE_ACTIVE series there carries GPU_I_PROFILE',
        how: match.stringContaining('DCGM_FI_DEV_GPU_UTIL is not reported for MIG instances'),
      }),
    ]);
  });

  it('times runs in devices, as gpusPerJob counts them: a 3g.40gb is one', () => {
    // Two devices for 24 h then one: 36 device-hours a day over 1 run × 2 devices → 18 h.
    const c = observedRuntime(w, measured(mixedJob))!;
    expect(c.observedMinutes).toBeCloseTo(18 * 60, 9);
  });

  it('holds an idle MIG workload at its share of a GPU, not rounded to a whole one', () => {
    const idle = measured([
      missing(`gpu-requests:${id}`),
      answer(`mig-requests:${id}`, [mixed('nvidia_com_mig_1g_10gb', 'requested', repeat(48, 2))]),
      answer(`mig-activity:${id}`, [inst('1g.10gb', 'slices', repeat(48, 2)), inst('1g.10gb', 'gr', repeat(48, 0.01))]),
    ]);
    const ladder = workloadLadder(w, idle, policy({ idleBelow: 0.05 }))!;
    expect(ladder.flags.map((f) => f.kind)).toEqual(['idle']);
    const [h] = idleHolders([w], [ladder], idle);
    expect(h!.heldGpus).toBeCloseTo(2 / 7, 12);
  });
});

describe('a scope without MIG', () => {
  it('keeps the whole-GPU ladder exactly when the MIG queries find no instance and no MIG resource', () => {
    const base: Measurement[] = [
      answer(`gpu-requests:${id}`, [hourly([...repeat(10, 4), ...repeat(10, 2)])]),
      answer(`gpu-busy-percent:${id}`, [hourly([...repeat(10, 50), ...repeat(10, 100)])]),
      answer(`sm-activity:${id}`, [hourly(repeat(20, 0.25), { dcgm_field: 'DCGM_FI_PROF_SM_ACTIVE' })]),
      answer(`tensor-activity:${id}`, [hourly(repeat(20, 0.1))]),
    ];
    // On a cluster without MIG the activity query still answers, with whole-GPU sums only.
    const withMig = [
      ...base,
      answer(`mig-activity:${id}`, [whole('whole-busy', repeat(20, 3)), whole('whole-sm', repeat(20, 1))]),
      missing(`mig-requests:${id}`),
    ];
    const before = measured(base);
    const after = measured(withMig);
    expect(workloadLadder(w, after, policy())).toEqual(workloadLadder(w, before, policy()));
    expect(after.missing()).toEqual(before.missing());
  });
});

describe('a pool of whole GPUs and MIG instances', () => {
  const POOL = 'a100';
  const change: CapacityChange = queueChange(POOL, 4, 8, { kind: 'karpenter-nodepool', file: 'pools/a100.yaml', gpuModel: 'A100' });
  const pid: ScopeId = `pool:${POOL}`;

  it('adds whole GPUs and instance shares rung by rung', () => {
    // 2 whole GPUs requested and seven 1g.10gb: 3 GPUs for 48 h. Busy: whole GPUs sum 1.0 (50% each),
    // instances 3.5 (7 × 50%): 1 + 3.5/7 = 1.5 per hour.
    const m = measured([
      answer(`gpu-allocatable:${pid}`, [hourly(repeat(48, 2))]),
      answer(`gpu-requests:${pid}`, [hourly(repeat(48, 2))]),
      answer(`gpu-busy-percent:${pid}`, [hourly(repeat(48, 20))]),
      answer(`mig-requests:${pid}`, [
        mixed('nvidia_com_mig_1g_10gb', 'requested', repeat(48, 7)),
        mixed('nvidia_com_mig_1g_10gb', 'allocatable', repeat(48, 7)),
      ]),
      answer(`mig-activity:${pid}`, [
        inst('1g.10gb', 'slices', repeat(48, 7)),
        inst('1g.10gb', 'gr', repeat(48, 3.5)),
        whole('whole-busy', repeat(48, 1)),
        whole('whole-gr', repeat(48, 0.8)),
      ]),
    ]);
    const l = capacityLadder(change, m, [], 0, policy())!;
    expect(l.allocatedGpuHours).toBeCloseTo(3 * 48, 9);
    expect(l.busyGpuHours).toBeCloseTo(1.5 * 48, 9);
    expect(l.busyFraction).toBeCloseTo(0.5, 9);
    expect(l.computingGpuHours).toBeCloseTo((0.8 + 0.5) * 48, 9);
    // The polluted whole-GPU mean (20%, instances read as GPUs) is not what the ladder rests on.
    expect(l.evidence.map((e) => e.ref)).not.toContain(`q(dcgm.gpu-util:${pid})`);
  });

  it('does not report zero GPUs allocated where DCGM shows instances at work but no pod requests them', () => {
    // Fourteen 1g.10gb at 10% with pods on them, and kube-state-metrics showing no request at all.
    const m = measured([
      answer(`gpu-allocatable:${pid}`, [hourly(repeat(48, 0))]),
      missing(`gpu-requests:${pid}`),
      answer(`mig-requests:${pid}`, [mixed('nvidia_com_mig_1g_10gb', 'allocatable', repeat(48, 14))]),
      answer(`mig-activity:${pid}`, [inst('1g.10gb', 'slices', repeat(48, 14)), inst('1g.10gb', 'gr', repeat(48, 1.4))]),
    ]);
    const l = capacityLadder(change, m, [], 0, policy())!;
    expect(l.allocatedGpuHours).toBeNull();
    expect(l.busyGpuHours).toBeCloseTo((1.4 / 7) * 48, 9);
    expect(l.busyFraction).toBeNull();
    expect(m.missing().map((x) => missingWords(x).what)).toEqual([
      'GPUs allocated in node pool a100: DCGM shows its GPUs or MIG instances in use, but kube-state-metrics shows no pod requesting nvidia.com/gpu or nvidia.com/mig-* there',
    ]);
  });

  /** One pod's MIG series: instances held and their summed GR-engine activity. */
  const migPod = (namespace: string, pod: string, profile: string, slices: number[], busy: number[] | null): MeasuredSeries[] => [
    {
      labels: { namespace, pod, GPU_I_PROFILE: profile, modelName: A100, measure: 'slices' },
      samples: slices.map((v, i) => ({ t: T0 + i * STEP, v })),
    },
    ...(busy === null
      ? []
      : [
          {
            labels: { namespace, pod, GPU_I_PROFILE: profile, modelName: A100, measure: 'busy' },
            samples: busy.map((v, i) => ({ t: T0 + i * STEP, v })),
          },
        ]),
  ];
  const wholePod = (namespace: string, pod: string, gpus: number, busy: number): MeasuredSeries[] => [
    { labels: { namespace, pod, measure: 'gpus' }, samples: repeat(48, gpus).map((v, i) => ({ t: T0 + i * STEP, v })) },
    { labels: { namespace, pod, measure: 'busy' }, samples: repeat(48, busy).map((v, i) => ({ t: T0 + i * STEP, v })) },
  ];

  it('measures pods per instance: GPU equivalents held at the end, busy over held', () => {
    // 2 × 1g.10gb for 24 h, then 1: held 24 × 2/7 + 24 × 1/7 = 72/7; busy 0.02 then 0.01 → 0.72/7 → 1%.
    const { pods, unmeasured } = measureMigPods(
      answer(migPodMeasureKey(POOL), migPod('nb', 'alice', '1g.10gb', half(2, 1), half(0.02, 0.01))),
      'w',
    );
    expect(unmeasured).toEqual([]);
    expect(pods).toHaveLength(1);
    expect(pods[0]!.gpus).toBeCloseTo(1 / 7, 12);
    expect(pods[0]!.busyFraction).toBeCloseTo(0.01, 12);
    expect(pods[0]).toMatchObject({ heldFraction: 1, slices: [{ profile: '1g.10gb', count: 1 }] });
    expect(podHeldText(pods[0]!)).toBe('1× 1g.10gb = 0.143 GPU');
  });

  it('lists idle MIG pods as slices and drops their instances from the whole-GPU answer', () => {
    const m = measured([
      answer(`gpu-requests:${pid}`, [hourly(repeat(48, 4))]),
      // An older exporter's GPU_UTIL of 0 on instances: bob's slices read as 2 idle GPUs, sue's as 1.
      answer(podMeasureKey(POOL), [...wholePod('nb', 'carol', 1, 0.01), ...wholePod('nb', 'bob', 2, 0), ...wholePod('ml', 'sue', 1, 0)]),
      answer(migPodMeasureKey(POOL), [
        ...migPod('nb', 'bob', '1g.10gb', repeat(48, 2), repeat(48, 0.02)),
        ...migPod('ml', 'busy', '3g.40gb', repeat(48, 1), repeat(48, 0.9)),
        // No GR-engine series: cannot be judged either way.
        ...migPod('ml', 'sue', '1g.10gb', repeat(48, 1), null),
      ]),
    ]);
    const pods = idlePods(change, [], m, policy({ idleBelow: 0.05 }));
    expect(pods.map((p) => [p.pod, p.gpus, p.slices ?? null])).toEqual([
      ['carol', 1, null],
      ['bob', 2 / 7, [{ profile: '1g.10gb', count: 2 }]],
    ]);
    expect(m.missing().map((x) => missingWords(x).what)).toEqual([
      'busy-ness of the MIG instances of node pool a100: no DCGM_FI_PROF_GR_ENGINE_ACTIVE series there carries GPU_I_PROFILE',
    ]);
  });
});
