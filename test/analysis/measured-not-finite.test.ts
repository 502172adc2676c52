import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../src/analysis/review-change.js';
import type { MeasureKey, MissingEvidence, TakenMeasurement } from '../../src/domain/index.js';
import { policy, queueChange, service } from '../factories.js';
import { answer, hourly, measured, repeat, telemetry } from './measured-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';

const KEY: MeasureKey = 'gpu-requests:workload:chat';
const NOTE: MissingEvidence = {
  what: 'GPUs requested by workload chat: 6 of 54 samples were not finite (5 NaN, 1 infinite)',
  how: 'find where its NaN or ±Inf values come from',
};
/** 48 finite hourly points, taken from a source that also wrote NaN or ±Inf. */
const withNaN = (): TakenMeasurement => ({ ...answer(KEY, [hourly(repeat(48, 2))]), notFinite: NOTE });

describe('measurements used although some samples were NaN or ±Inf', () => {
  it('are noted once, whether asked for or peeked at', () => {
    for (const read of ['answer', 'peek'] as const) {
      const m = measured([withNaN()]);
      expect(m[read](KEY)).toBeDefined();
      m.answer(KEY);
      expect(m.missing()).toEqual([NOTE]);
    }
  });

  it('are not noted when every sample was finite', () => {
    const m = measured([answer(KEY, [hourly(repeat(48, 2))])]);
    m.answer(KEY);
    expect(m.missing()).toEqual([]);
  });

  it('are not noted when not read', () => {
    const m = measured([withNaN()]);
    expect(m.missing()).toEqual([]);
  });

  it("are listed in the review's missing evidence, beside what else it lacks", () => {
    const chat = service({ name: 'chat', pool: 'l4-pool', queue: undefined, replicas: 2, selector: { namespace: 'chat' } });
    const change = queueChange('l4-pool', 4, 8, { kind: 'karpenter-nodepool' });
    const gpuUtil = answer('gpu-busy-percent:workload:chat', [hourly(repeat(48, 50))]);
    const clean = reviewChange({
      change,
      workloads: [chat],
      catalogFile: 'c.yaml',
      policy: policy(),
      telemetry: telemetry([answer(KEY, [hourly(repeat(48, 2))]), gpuUtil]),
    });
    const noted = reviewChange({
      change,
      workloads: [chat],
      catalogFile: 'c.yaml',
      policy: policy(),
      telemetry: telemetry([withNaN(), gpuUtil]),
    });
    expect(clean.missingEvidence.some((e) => missingWords(e).what.includes('not finite'))).toBe(false);
    expect(noted.missingEvidence).toHaveLength(clean.missingEvidence.length + 1);
    expect(noted.missingEvidence).toEqual(expect.arrayContaining([...clean.missingEvidence, NOTE]));
  });
});
