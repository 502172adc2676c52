import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { listingPr } from './listing-tree.js';

/**
 * Civo's sizes, generated in the shapes Civo's own examples write them (civo/llm-boilerplate: a
 * `civo_kubernetes_cluster` whose `pools` block takes a GPU size from a variable; a separate
 * `civo_kubernetes_node_pool`; `civo kubernetes create --size … --nodes …` in a script): a pool of
 * a GPU size resized is counted, `node_count` × the GPUs its size names (`an.g1.h100.kube.x8`:
 * eight H100); a CPU size (`g4s.kube.large`, whose `g` misleads) is no capacity; a GPU size whose
 * GPUs are not known, or one a script names, is not followed, never "no change".
 */

const AN_MODELS = ['l40s', 'h100', 'h200sxm', 'b200sxm', 'a100'];
const anSize = fc
  .record({ model: fc.constantFrom(...AN_MODELS), gpus: fc.constantFrom(1, 2, 4, 8), kube: fc.boolean() })
  .map(({ model, gpus, kube }) => ({ size: `an.g1.${model}${kube ? '.kube' : ''}.x${String(gpus)}`, gpus }));
const oneGpuSize = fc.constantFrom('g4g.kube.small', 'g4g.40.kube.small').map((size) => ({ size, gpus: 1 }));
const cpuSize = fc.constantFrom(
  'g4s.kube.large',
  'g4s.kube.medium',
  'g4c.kube.xlarge',
  'g4m.kube.large',
  'g4p.kube.small',
  'g3.k3s.medium',
);

type Shape = 'node-pool' | 'cluster-pools';

function tree(shape: Shape, size: string, count: number, inVariable: boolean): string {
  const sizing = inVariable
    ? `variable "node_size" {\n  type    = string\n  default = "${size}"\n}\n\nvariable "node_count" {\n  type    = number\n  default = ${String(count)}\n}\n\n`
    : '';
  const sizeExpr = inVariable ? 'var.node_size' : `"${size}"`;
  const countExpr = inVariable ? 'var.node_count' : String(count);
  if (shape === 'node-pool') {
    return `${sizing}resource "civo_kubernetes_node_pool" "gpu" {
  cluster_id = civo_kubernetes_cluster.cluster.id
  label      = "gpu-pool"
  node_count = ${countExpr}
  size       = ${sizeExpr}
}
`;
  }
  return `${sizing}resource "civo_kubernetes_cluster" "cluster" {
  name        = "llm"
  firewall_id = civo_firewall.fw.id
  cluster_type = "talos"
  pools {
    label      = "gpu-pool"
    size       = ${sizeExpr}
    node_count = ${countExpr}
  }
}
`;
}

async function coverageOf(before: string, after: string, path = 'infra/main.tf') {
  const result = await detectChanges(listingPr({ [path]: before }, { [path]: after }));
  return { changes: result.changes, state: result.coverage.find((c) => c.file === path)?.state };
}

const shapes = fc.constantFrom<Shape>('node-pool', 'cluster-pools');

describe('Civo sizes', () => {
  it('a pool of a GPU size resized is counted: node_count × the GPUs of its size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(anSize, oneGpuSize),
        shapes,
        fc.integer({ min: 0, max: 16 }),
        fc.integer({ min: 0, max: 16 }),
        fc.boolean(),
        async ({ size, gpus }, shape, a, b, v) => {
          fc.pre(a !== b);
          const { changes, state } = await coverageOf(tree(shape, size, a, v), tree(shape, size, b, v));
          expect(changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter])).toEqual([
            ['civo-node-pool', 'gpu-pool', a * gpus, b * gpus],
          ]);
          expect(state).toBe('read');
        },
      ),
      { numRuns: 30 },
    );
  });

  it('the model is the one the size names', async () => {
    const { changes } = await coverageOf(
      tree('node-pool', 'an.g1.h200sxm.kube.x8', 1, false),
      tree('node-pool', 'an.g1.h200sxm.kube.x8', 2, false),
    );
    expect(changes.map((c) => [c.gpusBefore, c.gpusAfter, c.gpuModel])).toEqual([[8, 16, 'H200']]);
  });

  it('a pool of a CPU size resized is no capacity', async () => {
    await fc.assert(
      fc.asyncProperty(cpuSize, shapes, fc.integer({ min: 0, max: 16 }), fc.boolean(), async (size, shape, a, v) => {
        const { changes, state } = await coverageOf(tree(shape, size, a, v), tree(shape, size, a + 1, v));
        expect(changes).toEqual([]);
        expect(state).not.toBe('not-followed');
      }),
      { numRuns: 20 },
    );
  });

  it('a GPU size whose GPUs are not known, resized, is not followed', async () => {
    const unknown = fc.constantFrom('g4g.kube.medium', 'g4g.kube.large', 'g4g.kube.xlarge');
    await fc.assert(
      fc.asyncProperty(unknown, shapes, fc.integer({ min: 0, max: 16 }), fc.boolean(), async (size, shape, a, v) => {
        const { changes, state } = await coverageOf(tree(shape, size, a, v), tree(shape, size, a + 1, v));
        expect(changes).toEqual([]);
        expect(state).toBe('not-followed');
      }),
      { numRuns: 15 },
    );
  });

  it('a script that makes a cluster of a GPU size, resized, is not followed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(anSize, oneGpuSize), fc.integer({ min: 1, max: 8 }), async ({ size }, a) => {
        const script = (n: number) =>
          `#!/bin/sh\ncivo kubernetes create gpu-cluster \\\n  --size ${size} \\\n  --nodes ${String(n)} \\\n  --region LON1 --wait\n`;
        const { changes, state } = await coverageOf(script(a), script(a + 1), 'scripts/create-cluster.sh');
        expect(changes).toEqual([]);
        expect(state).toBe('not-followed');
      }),
      { numRuns: 10 },
    );
  });
});
