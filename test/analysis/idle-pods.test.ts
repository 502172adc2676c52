import { describe, expect, it } from 'vitest';
import { HELD_MOST, coveredBy, idlePods, measurePods, podMeasureKey } from '../../src/analysis/idle-pods.js';
import { reviewChange } from '../../src/analysis/review-change.js';
import type { CapacityChange, MeasuredSeries, Workload } from '../../src/domain/index.js';
import { batch, policy, queueChange, service } from '../factories.js';
import { AT, STEP, answer, hourly, measured, missing, repeat, telemetry } from './measured-fixture.js';
import { findingText } from '../../src/report/findings.js';
import { missingWords } from '../../src/report/missing-words.js';

// 48 hourly points; the window is 48 h, so each point stands for 1/48 of it.
const T0 = Date.parse(AT) / 1000 - 48 * STEP;
const POOL = 'l4-pool';
const pool = (before: number, after: number): CapacityChange =>
  queueChange(POOL, before, after, { kind: 'karpenter-nodepool', file: 'pools/l4.yaml', gpuModel: 'NVIDIA L4' });

/** One pod's two series: GPUs held and busy GPUs, from point `from` on. */
function pod(namespace: string, name: string, gpus: number[], busy: number[], from = 0): MeasuredSeries[] {
  const at = (values: number[]) => values.map((v, i) => ({ t: T0 + (from + i) * STEP, v }));
  return [
    { labels: { namespace, pod: name, measure: 'gpus' }, samples: at(gpus) },
    { labels: { namespace, pod: name, measure: 'busy' }, samples: at(busy) },
  ];
}

const podAnswer = (...series: MeasuredSeries[][]) => answer(podMeasureKey(POOL), series.flat());

describe('measuring pods from the per-pod DCGM answer', () => {
  it('gives GPUs held at the end, the share of the window held and busy over held GPU-hours', () => {
    // 4 GPUs for 24 h at 0 busy, then 2 GPUs for 24 h with 0.1 of a GPU busy:
    // busy 24 × 0.1 = 2.4 GPU-hours over 24 × 4 + 24 × 2 = 144 held → 1/60.
    const [p] = measurePods(podAnswer(pod('ml', 'nb-0', [...repeat(24, 4), ...repeat(24, 2)], [...repeat(24, 0), ...repeat(24, 0.1)])));
    expect(p).toMatchObject({ namespace: 'ml', pod: 'nb-0', gpus: 2, heldFraction: 1 });
    expect(p!.busyFraction).toBeCloseTo(2.4 / 144, 12);
    expect(p!.evidence).toEqual([{ source: 'prometheus', ref: `q(dcgm.pod-gpus:pool:${POOL})`, window: `${48 * 60}m to ${AT}` }]);
  });

  it('holds nothing at the end when the pod is gone before the window closes', () => {
    const answer = podAnswer(pod('ml', 'gone', repeat(40, 2), repeat(40, 0)), pod('ml', 'here', repeat(48, 1), repeat(48, 0.5)));
    const gone = measurePods(answer).find((p) => p.pod === 'gone');
    // 40 of 48 hours, but nothing held at the last point.
    expect(gone).toMatchObject({ gpus: 0, heldFraction: 40 / 48, busyFraction: 0 });
  });
});

describe('idle pods outside the catalog', () => {
  const chat = service({ name: 'support-chat', pool: POOL, queue: undefined, selector: { namespace: 'chat' } });
  const idle = { idleBelow: 0.05 };

  it('counts a pod idle for most of the window and still holding its GPUs, and nothing else', () => {
    const m = measured([
      podAnswer(
        // 2 GPUs all window, 0.02 busy GPUs → 1%: counted.
        pod('notebooks', 'alice', repeat(48, 2), repeat(48, 0.02)),
        // Idle too, but held 1 h (came late): not counted.
        pod('notebooks', 'bob', [1], [0], 47),
        // Exactly half the window: not more than half, not counted; one hour more is.
        pod('scratch', 'half', repeat(24, 1), repeat(24, 0), 24),
        pod('scratch', 'more', repeat(25, 1), repeat(25, 0), 23),
        // Held all window but busy 50%.
        pod('ml', 'busy', repeat(48, 2), repeat(48, 1)),
        // Idle, all window, but the catalog's service: counted through its own ladder, never here.
        pod('chat', 'chat-0', repeat(48, 1), repeat(48, 0)),
      ),
    ]);
    const pods = idlePods(pool(4, 8), [chat], m, policy(idle));
    expect(pods.map((p) => [`${p.namespace}/${p.pod}`, p.gpus])).toEqual([
      ['notebooks/alice', 2],
      ['scratch/more', 1],
    ]);
    expect(pods[0]!.busyFraction).toBeCloseTo(0.01, 12);
    expect(pods[1]!.heldFraction).toBeCloseTo(25 / 48, 12);
    expect(HELD_MOST).toBe(0.5);
    // A stricter idleBelow than 1% leaves only the pod at 0%.
    expect(idlePods(pool(4, 8), [chat], m, policy({ idleBelow: 0.01 })).map((p) => p.pod)).toEqual(['more']);
    expect(m.missing()).toEqual([]);
  });

  it("matches catalog pods by the selector's namespace, else its pod name", () => {
    const byNs = batch({ name: 'a', selector: { namespace: 'chat', app: 'x' } });
    const byPod = batch({ name: 'b', selector: { pod: 'nb-0' } });
    const byApp = batch({ name: 'c', selector: { app: 'x' } });
    expect(coveredBy(byNs, 'chat', 'anything')).toBe(true);
    expect(coveredBy(byNs, 'other', 'anything')).toBe(false);
    expect(coveredBy(byPod, 'ml', 'nb-0')).toBe(true);
    expect(coveredBy(byPod, 'ml', 'nb-1')).toBe(false);
    expect(coveredBy(byApp, 'chat', 'nb-0')).toBe(false);
  });

  it('says how to add the pod labels when pods request GPUs but DCGM names none, and never guesses', () => {
    const requests = (gpus: number) => answer(`gpu-requests:pool:${POOL}`, [hourly(repeat(48, gpus))]);
    // The pool's DCGM series answer (joined by host name), but none of them names a pod.
    const poolUtil = answer(`gpu-busy-percent:pool:${POOL}`, [hourly(repeat(48, 40))]);
    const unlabelled = measured([missing(podMeasureKey(POOL)), requests(4), poolUtil]);
    expect(idlePods(pool(4, 8), [], unlabelled, policy())).toEqual([]);
    const [lack] = unlabelled.missing();
    expect(missingWords(lack!).what).toContain('no DCGM series names a pod');
    expect(missingWords(lack!).how).toContain('--kubernetes');
    expect(missingWords(lack!).how).toContain('DCGM_EXPORTER_KUBERNETES=true');
    // No DCGM series on the pool's nodes at all: pod mapping is not the fix, the host label is.
    const unjoined = measured([missing(podMeasureKey(POOL)), requests(4)]);
    expect(idlePods(pool(4, 8), [], unjoined, policy())).toEqual([]);
    const [noHost] = unjoined.missing();
    expect(missingWords(noHost!).what).toContain('no DCGM series is on its nodes');
    expect(missingWords(noHost!).how).toContain('must be the Kubernetes node name');
    // No pod requested GPUs there: nothing to be idle, nothing missing.
    const empty = measured([missing(podMeasureKey(POOL)), requests(0)]);
    expect(idlePods(pool(4, 8), [], empty, policy())).toEqual([]);
    expect(empty.missing()).toEqual([]);
    // Requests unknown too: the query's own missing line.
    const unknown = measured([missing(podMeasureKey(POOL))]);
    idlePods(pool(4, 8), [], unknown, policy());
    expect(unknown.missing()).toEqual([{ what: `what dcgm.pod-gpus:pool:${POOL}: nothing`, how: `how dcgm.pod-gpus:pool:${POOL}` }]);
    // A queue asks no per-pod question.
    expect(idlePods(queueChange('research', 4, 8), [], measured([]), policy())).toEqual([]);
  });
});

describe('the reclaim lever with idle pods outside the catalog', () => {
  const notebook = pod('notebooks', 'alice', repeat(48, 2), repeat(48, 0.02));

  it('adds their GPUs to the idle catalog job without counting the job twice', () => {
    // train: a catalog job in the pool at 1% busy on 2 GPUs all day; its pod is also in the per-pod answer.
    const train: Workload = {
      ...batch({ name: 'train', queue: undefined, pool: POOL, gpusPerJob: 2, runtime: 1440, window: { earliestStart: 0, deadline: 0 } }),
      type: 'training',
      selector: { namespace: 'train' },
    };
    const t = telemetry([
      answer('gpu-requests:workload:train', [hourly(repeat(48, 2))]),
      answer('gpu-busy-percent:workload:train', [hourly(repeat(48, 1))]),
      answer('sm-activity:workload:train', [hourly(repeat(48, 0.01), { dcgm_field: 'DCGM_FI_PROF_SM_ACTIVE' })]),
      answer('tensor-activity:workload:train', [hourly(repeat(48, 0))]),
      podAnswer(notebook, pod('train', 'train-0', repeat(48, 2), repeat(48, 0.02))),
    ]);
    const r = reviewChange({ change: pool(8, 12), workloads: [train], catalogFile: 'gpu-workloads.yaml', policy: policy(), telemetry: t });
    const reclaim = r.findings.find((f) => f.lever === 'reclaim-idle');
    // train's 2 GPUs (its plan's peak 2 → 0) + the notebook's 2; train-0 is train's, not a third pair.
    // The 8 there hold train's 3 with headroom even beside the notebook: reclaiming is not what meets the need.
    expect(reclaim).toMatchObject({ gpusFreed: 4, meetsNeed: false });
    expect(r.combination).toBeUndefined();
    expect(r.idlePods?.map((p) => p.pod)).toEqual(['alice']);
    expect(findingText(reclaim!)).toContain('train (2 GPUs, busy 1%)');
    expect(findingText(reclaim!)).toContain('Idle pods outside the catalog hold 2 GPUs of l4-pool: notebooks/alice (2 GPUs, busy 1%)');
    expect(findingText(reclaim!)).toContain('held GPUs over 50% of the window and at its end');
    expect(reclaim!.evidence.map((e) => e.ref)).toContain(`q(dcgm.pod-gpus:pool:${POOL})`);
    expect(r).toMatchObject({ verdict: 'not-justified', need: 0 });
  });

  it('never lowers the need with them: the verdict relies on them only when the need fits the GPUs there but not without theirs', () => {
    const chat = service({ name: 'support-chat', pool: POOL, queue: undefined, replicas: 4, selector: { namespace: 'chat' } });
    const review = (before: number) =>
      reviewChange({
        change: pool(before, before + 4),
        workloads: [chat],
        catalogFile: 'c.yaml',
        policy: policy({ headroom: 0 }),
        telemetry: telemetry([podAnswer(notebook)]),
      });
    // Need 4 (declared replicas). With 4 GPUs there the need fits only if the notebook's 2 come back.
    const tight = review(4);
    expect(tight).toMatchObject({ verdict: 'not-justified', need: 4, gpusNeeded: 0 });
    const tightReclaim = tight.findings.find((f) => f.lever === 'reclaim-idle');
    expect(tightReclaim).toMatchObject({ gpusFreed: 2, meetsNeed: true });
    expect(findingText(tightReclaim!)).toContain('the 4 GPUs there meet the need only once they are reclaimed');
    // With 6 there, 4 are left without them: the verdict does not rest on them.
    expect(review(6).findings.find((f) => f.lever === 'reclaim-idle')).toMatchObject({ gpusFreed: 2, meetsNeed: false });
    // With 2 there the need is 2 short: the notebook's GPUs are already among the 2, so still +2.
    const short = review(2);
    expect(short).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 2 });
    expect(findingText(short.findings.find((f) => f.lever === 'reclaim-idle')!)).toContain('the GPUs to add do not count them again');
  });

  it('warns when a catalog workload names no namespace, so its pods cannot be told from the idle ones', () => {
    const chat = service({ name: 'support-chat', pool: POOL, queue: undefined, selector: { namespace: 'chat' } });
    const dark = batch({ name: 'dark-job' });
    const r = reviewChange({
      change: pool(4, 8),
      workloads: [chat, dark],
      catalogFile: 'c.yaml',
      policy: policy(),
      telemetry: telemetry([podAnswer(notebook)]),
    });
    expect(findingText(r.findings.find((f) => f.lever === 'reclaim-idle')!)).toContain(
      'dark-job name no namespace in their selector, so their pods may be among these',
    );
  });
});
