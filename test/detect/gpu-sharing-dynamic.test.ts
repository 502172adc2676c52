import { describe, expect, it } from 'vitest';
import { detectPr, edited, loadReal } from './real-fixtures.js';

const DIR = 'gpu-sharing';

describe('GKE sharing written as a dynamic block', () => {
  // The same sharing written as a `dynamic "gpu_sharing_config"` block, as modules write it to share
  // only some pools: made once, it is the block; made never, no sharing; made by an unknown
  // condition, the factor is unknown (never read as unshared).
  const STATIC =
    'gpu_sharing_config {\n        gpu_sharing_strategy       = "TIME_SHARING"\n        max_shared_clients_per_gpu = 2\n      }';
  const dynamicSharing = (forEach: string, iterator?: string) =>
    [
      'dynamic "gpu_sharing_config" {',
      `        for_each = ${forEach}`,
      ...(iterator ? [`        iterator = ${iterator}`] : []),
      '        content {',
      '          gpu_sharing_strategy       = "TIME_SHARING"',
      '          max_shared_clients_per_gpu = 2',
      '        }',
      '      }',
    ].join('\n');
  const variants: [string, string, Record<string, unknown> | null][] = [
    ['for_each = [1]', dynamicSharing('[1]'), { state: 'shared', factor: 2, mode: 'gke-time-sharing' }],
    [
      'for_each = { on = true } with an iterator',
      dynamicSharing('{ on = true }', 's'),
      { state: 'shared', factor: 2, mode: 'gke-time-sharing' },
    ],
    ['for_each = true ? [1] : []', dynamicSharing('true ? [1] : []'), { state: 'shared', factor: 2, mode: 'gke-time-sharing' }],
    ['for_each = false ? [1] : []', dynamicSharing('false ? [1] : []'), null],
    ['for_each = []', dynamicSharing('[]'), null],
    ['for_each from a variable with no value', dynamicSharing('var.sharing_unset ? [1] : []'), { state: 'unknown' }],
  ];
  for (const [what, block, want] of variants) {
    it(`GKE Terraform dynamic gpu_sharing_config, ${what}: read as the block it makes`, async () => {
      const dir = `${DIR}/sd-gcp-gke`;
      const file = `${dir}/main.tf`;
      const base = edited(loadReal(dir), [[file, STATIC, block]]);
      const head = edited(base, [[file, 'max_node_count = 10\n  }\n  node_count', 'max_node_count = 20\n  }\n  node_count']]);
      const r = await detectPr(base, head);
      const pool = r.changes.find((c) => c.kind === 'gke-node-pool');
      expect([pool?.gpusBefore, pool?.gpusAfter]).toEqual([10, 20]);
      if (want === null) expect(pool?.after?.sharing).toBeUndefined();
      else expect(pool?.after?.sharing).toMatchObject(want);
    });
  }
});
