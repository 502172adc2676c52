import { describe, expect, it } from 'vitest';
import { cheaperModels } from '../../src/analysis/cheaper-model.js';
import { Measured } from '../../src/analysis/measured.js';
import type { CostMeasurement } from '../../src/domain/index.js';
import { policy, queueChange, service } from '../factories.js';
import { AT, answer, hourly, repeat, row, telemetry } from './measured-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';

// 48 hours, 4 GPUs held all the time: $192 at the $1/GPU-hour catalog price.
const change = queueChange('l4', 4, 8, { kind: 'karpenter-nodepool', gpuModel: 'L4' });
const chat = service({
  name: 'chat',
  replicas: 4,
  selector: { namespace: 'chat' },
  slo: { p95LatencyMs: 2000 },
  quality: 0.9,
  qualityThreshold: 0.85,
  outcomes: { verified: 'v', total: 't' },
  alternatives: [{ name: 'small', gpusPerReplica: 1, quality: 0.88, loadTest: 'small.json' }],
});
const row_ = (namespace: string, gpuCost: number | null) => ({ namespace, gpuCost });

function measured(cost: CostMeasurement | null): Measured {
  const t = telemetry(
    [
      answer('gpu-requests:workload:chat', [hourly(repeat(48, 4))]),
      answer('verified-outcomes:workload:chat', [hourly([900])], 'instant'),
      answer('total-outcomes:workload:chat', [hourly([1000])], 'instant'),
    ],
    { 'small.json': { ok: true, value: { format: 'vllm-bench', rows: [row(5, 1500)] } } },
  );
  return new Measured({ ...t, cost });
}

const current = (m: Measured) => cheaperModels(chat, change, 4, m, policy({ prices: { L4: 1 } })).costs.find((c) => c.option === 'current');

describe("the service's current cost", () => {
  it("is OpenCost's GPU cost of its namespace when OpenCost has it", () => {
    const m = measured({ status: 'measured', namespaces: [row_('kube-system', 0), row_('chat', 150)] });
    const c = current(m);
    expect(c).toMatchObject({ usdOverWindow: 150, verifiedOutcomes: 900, note: { code: 'opencost' } });
    expect(c?.usdPerVerifiedOutcome).toBeCloseTo(150 / 900, 12);
    expect(c?.evidence[0]).toEqual({
      source: 'opencost',
      ref: 'allocation aggregate=namespace chat: gpuCost',
      window: `${48 * 60}m to ${AT}`,
    });
    expect(m.missing()).toEqual([]);
  });

  it('falls back to GPU-hours × the catalog price, and says why, when OpenCost failed or had no cost for it', () => {
    const failed = measured({ status: 'missing', message: 'opencost at http://oc is unreachable' });
    expect(current(failed)).toMatchObject({ usdOverWindow: 192 });
    expect(failed.missing().map((x) => missingWords(x).what)).toEqual(['GPU cost from OpenCost: opencost at http://oc is unreachable']);
    for (const namespaces of [[row_('kube-system', 0)], [row_('chat', null)]]) {
      const none = measured({ status: 'measured', namespaces });
      expect(current(none)?.usdOverWindow).toBe(192);
      expect(none.missing().map((x) => missingWords(x).what)).toEqual([
        'GPU cost of namespace chat from OpenCost: it reported none over the window',
      ]);
    }
    // OpenCost not configured: the catalog price is the intended source, nothing is missing.
    const off = measured(null);
    expect(current(off)?.usdOverWindow).toBe(192);
    expect(off.missing()).toEqual([]);
  });
});
