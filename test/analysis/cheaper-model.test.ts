import { describe, expect, it } from 'vitest';
import { cheaperModels } from '../../src/analysis/cheaper-model.js';
import { Measured } from '../../src/analysis/measured.js';
import { policy, queueChange, service } from '../factories.js';
import { answer, hourly, repeat, row, telemetry } from './measured-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';
import { costNoteText } from '../../src/report/findings.js';

// 48 hours, 4 GPUs held all the time at $1/GPU-hour: $192 over the window.
const change = queueChange('l4', 4, 8, { kind: 'karpenter-nodepool', gpuModel: 'L4' });
const prices = { L4: 1, T4: 0.5 };
const chat = service({
  name: 'chat',
  replicas: 4,
  selector: { namespace: 'chat' },
  slo: { p95LatencyMs: 2000 },
  quality: 0.9,
  qualityThreshold: 0.85,
  outcomes: { verified: 'v', total: 't' },
  alternatives: [
    { name: 'small', gpusPerReplica: 1, quality: 0.88, loadTest: 'small.json' },
    { name: 'tiny', gpusPerReplica: 1, quality: 0.7, loadTest: 'small.json' },
    { name: 'on-t4', gpuType: 'T4', gpusPerReplica: 1, quality: 0.9, loadTest: 't4.json' },
  ],
});

function measured() {
  return new Measured(
    telemetry(
      [
        answer('gpu-requests:workload:chat', [hourly(repeat(48, 4))]),
        answer('verified-outcomes:workload:chat', [hourly([900])], 'instant'),
        answer('total-outcomes:workload:chat', [hourly([1000])], 'instant'),
      ],
      {
        'small.json': { ok: true, value: { format: 'vllm-bench', rows: [row(5, 1500)] } },
        't4.json': { ok: true, value: { format: 'vllm-bench', rows: [row(1.25, 1900)] } },
      },
    ),
  );
}

describe('cost per verified outcome', () => {
  it('compares the service as it ran with each alternative sized for the observed peak', () => {
    const { costs, best } = cheaperModels(chat, change, 4, measured(), policy({ prices, headroom: 0.25 }));
    const by = Object.fromEntries(costs.map((c) => [c.option, c]));
    // Current: 4 GPUs × 48 h × $1 = $192 for 900 verified outcomes.
    expect(by['current']).toMatchObject({ usdOverWindow: 192, verifiedOutcomes: 900, gpus: 4 });
    expect(by['current']?.usdPerVerifiedOutcome).toBeCloseTo(192 / 900, 9);
    // small: ceil(4 × 1.25 / 5) = 1 replica, $48, 1000 × 0.88 = 880 outcomes.
    expect(by['small']).toMatchObject({ gpus: 1, usdOverWindow: 48, verifiedOutcomes: 880, qualifies: true });
    // tiny fails quality; on-t4: ceil(5 / 1.25) = 4 T4s × 48 h × $0.5 = $96 for 900.
    expect(by['tiny']).toMatchObject({ qualifies: false });
    expect(costNoteText(by['tiny']!.note)).toContain('under the threshold');
    expect(by['on-t4']).toMatchObject({ gpus: 4, usdOverWindow: 96, qualifies: true });
    expect(best?.cost.option).toBe('small');
    expect(best).toMatchObject({ gpusFreed: 3, sameType: true });
  });

  it('counts no alternative without a quality threshold, and says so', () => {
    const m = measured();
    const { best } = cheaperModels({ ...chat, qualityThreshold: undefined }, change, 4, m, policy({ prices }));
    expect(best).toBeNull();
    expect(m.missing().map((x) => missingWords(x).what)).toContain('the quality threshold of chat');
  });

  it('counts nothing without an observed peak to size alternatives for', () => {
    expect(cheaperModels(chat, change, null, measured(), policy({ prices })).best).toBeNull();
  });
});
