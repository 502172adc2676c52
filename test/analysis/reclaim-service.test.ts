import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../src/analysis/review-change.js';
import type { CapacityChange, ChangeReview } from '../../src/domain/index.js';
import { policy, queueChange, service } from '../factories.js';
import { answer, hourly, repeat, telemetry } from './measured-fixture.js';
import { reviewReason } from '../../src/report/reasons.js';
import { findingText } from '../../src/report/findings.js';

const POOL = 'l4-pool';
const pool = (before: number, after: number): CapacityChange =>
  queueChange(POOL, before, after, { kind: 'karpenter-nodepool', file: 'pools/l4.yaml', gpuModel: 'NVIDIA L4' });
// Declares 4 one-GPU replicas; no load test, so the need counts them as declared.
const chat = service({ name: 'chat', pool: POOL, queue: undefined, replicas: 4, gpusPerReplica: 1, selector: { namespace: 'chat' } });

/** chat's pods held `held` GPUs all window, 1% busy. */
function review(before: number, held: number): ChangeReview {
  const t = telemetry([
    answer('gpu-requests:workload:chat', [hourly(repeat(48, held))]),
    answer('gpu-busy-percent:workload:chat', [hourly(repeat(48, 1))]),
  ]);
  return reviewChange({
    change: pool(before, before + 4),
    workloads: [chat],
    catalogFile: 'c.yaml',
    policy: policy({ headroom: 0.2 }),
    telemetry: t,
  });
}

const reclaim = (r: ChangeReview) => r.findings.find((f) => f.lever === 'reclaim-idle');

describe('reclaiming an idle service', () => {
  it('frees nothing when its pods hold only the one replica it keeps, and is not what meets a need above the GPUs there', () => {
    // 4 declared × 1.2 headroom → 5 GPUs > 4 there. Its pods hold 1 GPU: shrinking to one replica frees none.
    const r = review(4, 1);
    expect(reclaim(r)).toMatchObject({ gpusFreed: 0, meetsNeed: false });
    expect(findingText(reclaim(r)!)).toContain('chat (1 GPUs held of the 4 declared, busy 1%)');
    expect(findingText(reclaim(r)!)).toContain('Reclaiming them frees no GPU the need counts');
    expect(r).toMatchObject({ verdict: 'partially-justified', need: 5, gpusNeeded: 1 });
    expect(reviewReason(r)).not.toContain('reclaim-idle');
  });

  it('says the GPUs there already meet the need when they do, instead of crediting the lever', () => {
    const r = review(6, 1);
    expect(reclaim(r)).toMatchObject({ gpusFreed: 0, meetsNeed: false });
    expect(findingText(reclaim(r)!)).toContain('the 6 GPUs there already meet the need (5 GPUs) without it');
    expect(r).toMatchObject({ verdict: 'not-justified', need: 5, gpusNeeded: 0 });
  });

  it('lowers the need by what its pods held beyond one replica', () => {
    // Held 3 of the 4 declared: reclaiming frees 2, so the service counts 4 − 2 = 2 → 2 × 1.2 = 3 GPUs.
    const r = review(2, 3);
    expect(reclaim(r)).toMatchObject({ gpusFreed: 2, meetsNeed: false });
    expect(r).toMatchObject({ need: 3, gpusNeeded: 1 });
    // All 4 running: reclaiming frees 3, one replica is left, and the 4 GPUs there are plenty.
    const all = review(4, 4);
    expect(reclaim(all)).toMatchObject({ gpusFreed: 3, meetsNeed: true });
    expect(all).toMatchObject({ verdict: 'not-justified', need: 2 });
  });

  it('never credits a lever that frees nothing', () => {
    for (const before of [1, 2, 4, 6]) {
      for (const held of [1, 2, 4, 6]) {
        const r = review(before, held);
        for (const f of r.findings) if (f.meetsNeed) expect(f.gpusFreed, `${f.lever} before=${before} held=${held}`).toBeGreaterThan(0);
      }
    }
  });
});
