import { describe, expect, it } from 'vitest';
import type { Finding, IdlePod } from '../../src/domain/index.js';
import { idlePodsTable } from '../../src/report/idle-pods.js';
import { leversTable } from '../../src/report/tables.js';

const slicePod = (i: number, count: number): IdlePod => ({
  namespace: 'notebooks',
  pod: `nb-${i}`,
  gpus: count / 7,
  busyFraction: 0.01,
  heldFraction: 1,
  slices: [{ profile: '1g.10gb', count }],
  evidence: [{ source: 'prometheus', ref: 'q', window: '2880m to t' }],
});

describe('idle MIG instances in the report', () => {
  it('shows the GPU equivalent with the slices it is made of', () => {
    expect(idlePodsTable([slicePod(0, 2)])).toMatch(/\| notebooks\/nb-0 +\| 0\.286 \(2× 1g\.10gb\) +\| 1% +\| 100% +\|/);
  });

  it('adds the pods left out in GPU equivalents, never rounding a slice up', () => {
    // 12 pods of one 1g.10gb: 10 shown, 2 left out holding 2/7 of a GPU.
    const table = idlePodsTable(Array.from({ length: 12 }, (_, i) => slicePod(i, 1)));
    expect(table).toContain('…and 2 more idle pods holding 0.286 GPUs not shown.');
  });

  it('writes fractional GPUs freed to three figures and whole ones as they are', () => {
    const finding = (gpusFreed: number): Finding => ({
      lever: 'reclaim-idle',
      gpusFreed,
      meetsNeed: false,
      detail: { code: 'stagger', runs: 1, peak: 1, naivePeak: 1 },
      evidence: [],
    });
    expect(leversTable([finding(1 + 3 / 7)], false)).toMatch(/\| reclaim-idle +\| 1\.43 +\|/);
    expect(leversTable([finding(2)], false)).toMatch(/\| reclaim-idle +\| 2 +\|/);
  });
});
