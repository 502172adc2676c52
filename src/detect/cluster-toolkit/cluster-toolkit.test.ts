import { describe, expect, it } from 'vitest';
import { yaml } from '../../../test/detect/fixtures.js';
import { detectFile } from '../detect-file.js';
import type { ParseResult } from '../parser.js';

const counts = (r: ParseResult) => r.decls.map((d) => [d.kind, d.name, d.gpus]);

describe('Cluster Toolkit', () => {
  it('resolves $(vars.x) in a blueprint', () => {
    const bp = yaml`
      vars:
        nodes: 2
      deployment_groups:
      - group: primary
        modules:
        - id: pool
          source: modules/compute/gke-node-pool
          settings:
            machine_type: a3-highgpu-8g
            static_node_count: $(vars.nodes)
    `;
    const r = detectFile('bp.yaml', bp);
    expect(counts(r)).toEqual([['gke-node-pool', 'pool', 16]]);
    expect(r.decls[0]?.gpuModel).toBe('H100');
  });
});
