import { describe, expect, it } from 'vitest';
import { capacityLadder, workloadLadder } from '../../src/analysis/ladder.js';
import { flagText } from '../../src/report/findings.js';
import { batch, policy, queueChange } from '../factories.js';
import { answer, hourly, measured, missing, repeat } from './measured-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';

const w = batch({ name: 'job', selector: { namespace: 'ns' }, outcomes: { verified: 'x' } });
const id = 'workload:job';

describe('utilisation ladder', () => {
  it('weights per-GPU means by the GPUs held: allocated → busy → computing → productive', () => {
    // 10 hours at 4 GPUs then 10 hours at 2 GPUs: 60 GPU-hours.
    const gpus = [...repeat(10, 4), ...repeat(10, 2)];
    const m = measured([
      answer(`gpu-requests:${id}`, [hourly(gpus)]),
      answer(`gpu-busy-percent:${id}`, [hourly([...repeat(10, 50), ...repeat(10, 100)])]),
      answer(`sm-activity:${id}`, [hourly(repeat(20, 0.25), { dcgm_field: 'DCGM_FI_PROF_GR_ENGINE_ACTIVE' })]),
      answer(`tensor-activity:${id}`, [hourly(repeat(20, 0.1))]),
      answer(`dram-activity:${id}`, [hourly(repeat(20, 0.1))]),
      answer(`verified-outcomes:${id}`, [hourly([30])], 'instant'),
    ]);
    const l = workloadLadder(w, m, policy())!;
    // busy: 10 h × 4 × 0.5 + 10 h × 2 × 1 = 40; computing: 60 × 0.25 = 15; tensor 6; 30 / 60 outcomes per GPU-hour.
    expect(l).toMatchObject({
      allocatedGpuHours: 60,
      busyGpuHours: 40,
      computingGpuHours: 15,
      computeField: 'DCGM_FI_PROF_GR_ENGINE_ACTIVE',
      verifiedOutcomes: 30,
      outcomesPerGpuHour: 0.5,
    });
    expect(l.tensorGpuHours).toBeCloseTo(6, 9);
    expect(l.busyFraction).toBeCloseTo(2 / 3, 9);
    expect(l.flags).toEqual([]);
    expect(l.evidence.map((e) => e.ref)).toContain(`q(ksm.gpu-requests:${id})`);
  });

  it('flags an idle allocation under idleBelow and memory-bound work', () => {
    const m = measured([
      answer(`gpu-requests:${id}`, [hourly(repeat(10, 2))]),
      answer(`gpu-busy-percent:${id}`, [hourly(repeat(10, 30))]),
      answer(`sm-activity:${id}`, [hourly(repeat(10, 0.2), { dcgm_field: 'DCGM_FI_PROF_SM_ACTIVE' })]),
      answer(`dram-activity:${id}`, [hourly(repeat(10, 0.5))]),
    ]);
    expect(workloadLadder(w, m, policy({ idleBelow: 0.05 }))!.flags.map((f) => f.kind)).toEqual(['memory-bound']);
    const strict = workloadLadder(w, m, policy({ idleBelow: 0.35 }))!;
    expect(strict.flags.map((f) => f.kind)).toEqual(['idle', 'memory-bound']);
    expect(flagText(strict.flags[0]!)).toContain('30%');
  });

  it('leaves a rung null when its query has no answer, and records what is missing', () => {
    const m = measured([answer(`gpu-requests:${id}`, [hourly(repeat(5, 1))]), missing(`gpu-busy-percent:${id}`)]);
    const l = workloadLadder(w, m, policy())!;
    expect(l).toMatchObject({ allocatedGpuHours: 5, busyGpuHours: null, busyFraction: null, flags: [] });
    expect(m.missing().map((x) => missingWords(x).what)).toContain(`what dcgm.gpu-util:${id}: nothing`);
  });

  it('has no ladder for a workload without a selector', () => {
    expect(workloadLadder(batch({ name: 'dark' }), measured([]), policy())).toBeNull();
  });

  it('adds the linked workloads up for a queue, and takes its allocation from Kueue usage', () => {
    const m = measured([
      answer(`gpu-requests:${id}`, [hourly(repeat(10, 2))]),
      answer(`gpu-busy-percent:${id}`, [hourly(repeat(10, 50))]),
      answer('queue-usage:queue:research', [hourly(repeat(10, 3), { flavor: 'a' })]),
    ]);
    const linked = [workloadLadder(w, m, policy())!];
    const q = capacityLadder(queueChange('research', 4, 8), m, linked, 1, policy())!;
    expect(q).toMatchObject({ scope: 'queue', allocatedGpuHours: 30, busyGpuHours: 10 });
    // A linked workload without measurements makes the queue's busy rung unknown.
    expect(capacityLadder(queueChange('research', 4, 8), m, linked, 2, policy())!.busyGpuHours).toBeNull();
  });
});
