import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../src/analysis/review-change.js';
import type { CapacityChange, CapacityDecl, PoolSharing } from '../../src/domain/index.js';
import { gpusCell, sharedMore, sharingSentence } from '../../src/report/sharing.js';
import { batch, policy, queueChange } from '../factories.js';
import { reviewReason } from '../../src/report/reasons.js';
import { missingWords } from '../../src/report/missing-words.js';

const source = { file: 'karpenter/nodeclass.yaml', line: 29, name: 'EC2NodeClass/gpu' };

function pool(physical: number, sharing: PoolSharing | undefined): CapacityDecl {
  return {
    file: 'karpenter/pool.yaml',
    line: 7,
    kind: 'karpenter-nodepool',
    name: 'slices',
    gpuModel: null,
    gpus: physical,
    parts: [],
    ...(sharing ? { sharing } : {}),
  };
}

const shared = (physical: number, factor: number): PoolSharing => ({
  state: 'shared',
  factor,
  mode: 'bottlerocket-time-slicing',
  source,
  schedulable: physical * factor,
});

function change(before: CapacityDecl, after: CapacityDecl): CapacityChange {
  return queueChange('slices', before.gpus, after.gpus, { kind: 'karpenter-nodepool', file: after.file, line: after.line, before, after });
}

// Eight 1-GPU runs of two hours in a four-hour window: four shared GPUs at the staggered peak.
const eight = batch({
  name: 'embed',
  queue: undefined,
  pool: 'slices',
  gpusPerJob: 1,
  jobsPerDay: 8,
  window: { earliestStart: 0, deadline: 240 },
});

describe('reviews of pools whose GPUs are shared', () => {
  it('judges in shared GPUs and tells physical ones: 4 shared GPUs needed are 1 physical at ×4', () => {
    const r = reviewChange({
      change: change(pool(1, shared(1, 4)), pool(4, shared(4, 4))),
      workloads: [eight],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect(r.sharing).toMatchObject({ state: 'shared', schedulableNeed: 4, schedulableGpusNeeded: 0, factorAfter: 4 });
    expect([r.verdict, r.need, r.gpusNeeded]).toEqual(['not-justified', 1, 0]);
    expect(r.change.delta).toBe(3);
  });

  it('the same change counted as if every advertised GPU were physical would be justified: the factor decides', () => {
    const r = reviewChange({
      change: change(pool(1, undefined), pool(4, undefined)),
      workloads: [eight],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect(r.verdict).toBe('justified');
    expect(r.sharing).toBeUndefined();
  });

  it('a part of a GPU needs the whole GPU: 6 shared GPUs at ×4 are 2 physical', () => {
    const twelve = { ...eight, jobsPerDay: 12 };
    const r = reviewChange({
      change: change(pool(1, shared(1, 4)), pool(4, shared(4, 4))),
      workloads: [twelve],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect([r.verdict, r.need, r.gpusNeeded]).toEqual(['partially-justified', 2, 1]);
  });

  it('a factor change alone asks for no hardware, whatever the need in shared GPUs', () => {
    const r = reviewChange({
      change: change(pool(1, shared(1, 2)), pool(1, shared(1, 4))),
      workloads: [{ ...eight, jobsPerDay: 40 }],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect([r.verdict, r.gpusNeeded, r.change.delta]).toEqual(['justified', 0, 0]);
    expect(reviewReason(r)).toBe('GPU sharing: each GPU is advertised as 4 (was 2); no new hardware');
    expect([r.findings, r.missingEvidence]).toEqual([[], []]);
    expect(r.sharing).toMatchObject({ factorBefore: 2, factorAfter: 4, schedulableBefore: 2, schedulableAfter: 4 });
  });

  it('an unknown factor: no verdict on the increase, low confidence, the missing factor listed', () => {
    const unknown: PoolSharing = { state: 'unknown', code: 'sharing-ambiguous', source };
    const r = reviewChange({
      change: change(pool(8, unknown), pool(16, unknown)),
      workloads: [eight],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect([r.verdict, r.gpusNeeded, r.confidence]).toEqual(['insufficient-evidence', null, 'low']);
    expect(missingWords(r.missingEvidence[0]!).what).toBe('the GPU sharing factor of pool slices (sharing-ambiguous)');
  });
});

describe('sharing in the report', () => {
  it('the GPUs cell gives physical, shared and the factor; a factor change says no physical GPU', () => {
    expect(gpusCell(change(pool(10, shared(10, 4)), pool(20, shared(20, 4))))).toBe('10 → 20 physical (40 → 80 shared, ×4)');
    expect(gpusCell(change(pool(10, shared(10, 2)), pool(20, shared(20, 4))))).toBe('10 → 20 physical (20 → 80 shared, ×2 → ×4)');
    const factor = queueChange('cm/key', 2, 4, { kind: 'gpu-sharing' });
    expect(gpusCell(factor)).toBe('2 → 4 per GPU (0 physical)');
    expect(sharingSentence({ state: 'factor', factorBefore: 2, factorAfter: 4, physicalDelta: 0 })).toBe(
      'Each physical GPU is advertised as 4 schedulable GPUs (was 2): schedulable GPUs change, physical GPUs do not (+0).',
    );
    expect(gpusCell(change(pool(40, undefined), pool(80, undefined)))).toBe('40 → 80');
  });

  it('the headline counts a pool whose factor alone grew as sharing, not as a cut', () => {
    const pools = [change(pool(10, shared(10, 2)), pool(10, shared(10, 4))), change(pool(10, shared(10, 4)), pool(12, shared(12, 4)))];
    expect(sharedMore(pools)).toEqual([{ name: 'slices', before: 2, after: 4 }]);
    expect(sharedMore([queueChange('cm/key', 2, 4, { kind: 'gpu-sharing' })])).toEqual([{ name: 'cm/key', before: 2, after: 4 }]);
  });
});
