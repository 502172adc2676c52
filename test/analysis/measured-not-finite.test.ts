import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { reviewChange } from '../../src/analysis/review-change.js';
import { policy, queueChange, service } from '../factories.js';
import { answer, hourly, measured, repeat, telemetry } from './measured-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';

const ID = 'ksm.gpu-requests:workload:chat';
/** 48 finite hourly points, and `nan` NaN samples the source left out. */
const withNaN = (nan: number, droppedSeries?: number) => ({
  ...answer(ID, [hourly(repeat(48, 2))]),
  skipped: { nan, inf: 1, blank: 0 },
  ...(droppedSeries === undefined ? {} : { droppedSeries }),
});

describe('answers used although some samples were NaN or ±Inf', () => {
  it('are noted once, naming the query, whether asked for or peeked at', () => {
    for (const read of ['answer', 'peek'] as const) {
      const m = measured([withNaN(5)]);
      expect(m[read](ID)).toBeDefined();
      m.answer(ID);
      expect(m.missing()).toEqual([
        {
          what: `${ID}: 6 of 54 samples of ${ID} were not finite (5 NaN, 1 infinite); the numbers taken from it count only the finite ones`,
          how: `run ${ID} in Prometheus and find where its NaN or ±Inf values come from (a division by zero in a recording rule, an exporter writing NaN)`,
        },
      ]);
    }
  });

  it('say how many series had no finite sample at all', () => {
    const m = measured([withNaN(48, 1)]);
    m.answer(ID);
    expect(missingWords(m.missing()[0]!).what).toContain('1 of its series had no finite sample and is left out');
  });

  it('are not noted when every sample was finite', () => {
    const m = measured([answer(ID, [hourly(repeat(48, 2))])]);
    m.answer(ID);
    expect(m.missing()).toEqual([]);
  });

  it("are listed in the review's missing evidence, beside what else it lacks", () => {
    const chat = service({ name: 'chat', pool: 'l4-pool', queue: undefined, replicas: 2, selector: { namespace: 'chat' } });
    const change = queueChange('l4-pool', 4, 8, { kind: 'karpenter-nodepool' });
    const gpuUtil = answer('dcgm.gpu-util:workload:chat', [hourly(repeat(48, 50))]);
    const clean = reviewChange({
      change,
      workloads: [chat],
      catalogFile: 'c.yaml',
      policy: policy(),
      telemetry: telemetry([answer(ID, [hourly(repeat(48, 2))]), gpuUtil]),
    });
    const noted = reviewChange({
      change,
      workloads: [chat],
      catalogFile: 'c.yaml',
      policy: policy(),
      telemetry: telemetry([withNaN(5), gpuUtil]),
    });
    expect(clean.missingEvidence.some((e) => missingWords(e).what.includes('not finite'))).toBe(false);
    expect(noted.missingEvidence).toHaveLength(clean.missingEvidence.length + 1);
    expect(noted.missingEvidence).toEqual(
      expect.arrayContaining([...clean.missingEvidence, match.objectContaining({ what: match.stringMatching(`^${ID}: 6 of 54 samples`) })]),
    );
  });
});
