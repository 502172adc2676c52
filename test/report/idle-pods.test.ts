import { describe, expect, it } from 'vitest';
import type { IdlePod } from '../../src/domain/index.js';
import { MAX_IDLE_POD_ROWS, idlePodsTable } from '../../src/report/idle-pods.js';

const pod = (i: number, gpus: number): IdlePod => ({
  namespace: 'notebooks',
  pod: `nb-${i}`,
  gpus,
  busyFraction: 0.004,
  heldFraction: 0.75,
  evidence: [{ source: 'prometheus', ref: 'q', window: '2880m to t' }],
});

describe('idle pods table', () => {
  it('lists each pod with its GPUs, busy and held shares', () => {
    const table = idlePodsTable([pod(0, 2)]);
    expect(table).toMatch(/\| notebooks\/nb-0 +\| 2 +\| 0\.4% +\| 75% +\|/);
    expect(table).not.toContain('more idle pods');
  });

  it('shows the first rows and counts the pods and GPUs left out', () => {
    // 13 pods of 1 GPU: 10 shown, 3 pods holding 3 GPUs counted.
    const pods = Array.from({ length: MAX_IDLE_POD_ROWS + 3 }, (_, i) => pod(i, 1));
    const table = idlePodsTable(pods);
    expect(table.split('\n').filter((l) => l.startsWith('| notebooks/'))).toHaveLength(MAX_IDLE_POD_ROWS);
    expect(table).toContain('…and 3 more idle pods holding 3 GPUs not shown.');
  });

  it('escapes pod names taken from the cluster', () => {
    expect(idlePodsTable([{ ...pod(0, 1), pod: 'x|<img>' }])).toContain('notebooks/x\\|&lt;img&gt;');
  });
});
