import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { listingPr } from './listing-tree.js';

/**
 * Crusoe Cloud's instance types (crusoecloud/terraform-provider-crusoe's examples: a node pool of
 * `a100-80gb.1x`, instances of `a100-80gb-sxm-ib.8x`), generated: a `crusoe_kubernetes_node_pool`
 * of a GPU type resized is counted, `instance_count` × the GPUs its type names (`.8x`: eight),
 * written in the resource or given by a variable's default; the same pool of a CPU type
 * (`c1a.16x`) is no capacity, and a type that is neither a CPU type nor a GPU type the names tell
 * is not followed, never "no change".
 */

const GPUS = ['a100', 'a40', 'l40s', 'h100', 'h200', 'b200', 'gb200', 'mi300x'];
const FORMS = ['', '-sxm', '-sxm-ib', '-ib', '-pcie', '-nvl-ib'];
const gpuType = fc
  .record({
    gpu: fc.constantFrom(...GPUS),
    memory: fc.option(fc.constantFrom(40, 48, 80, 141, 180, 192), { nil: undefined }),
    form: fc.constantFrom(...FORMS),
    count: fc.constantFrom(1, 2, 4, 8),
  })
  .map(({ gpu, memory, form, count }) => `${gpu}${memory === undefined ? '' : `-${String(memory)}gb`}${form}.${String(count)}x`);
const cpuType = fc
  .record({ family: fc.constantFrom('c1a', 's1a'), size: fc.constantFrom(2, 4, 16, 80, 176) })
  .map(({ family, size }) => `${family}.${String(size)}x`);

function pool(type: string, count: number, inVariable: boolean): string {
  const sized = inVariable ? `variable "worker" {\n  default = {\n    type  = "${type}"\n    count = ${String(count)}\n  }\n}\n\n` : '';
  return `${sized}resource "crusoe_kubernetes_node_pool" "workers" {
  name           = "workers"
  instance_count = ${inVariable ? 'var.worker.count' : String(count)}
  type           = ${inVariable ? 'var.worker.type' : `"${type}"`}
}
`;
}

async function coverageOf(before: string, after: string) {
  const result = await detectChanges(listingPr({ 'infra/main.tf': before }, { 'infra/main.tf': after }));
  return { changes: result.changes, state: result.coverage.find((c) => c.file === 'infra/main.tf')?.state };
}

const gpusOf = (type: string): number => Number(/\.([0-9]+)x$/.exec(type)?.[1]);

describe('Crusoe instance types', () => {
  it('a pool of a GPU type resized is counted: instance_count × the GPUs of its type', async () => {
    await fc.assert(
      fc.asyncProperty(gpuType, fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 32 }), fc.boolean(), async (type, a, b, v) => {
        fc.pre(a !== b);
        const { changes, state } = await coverageOf(pool(type, a, v), pool(type, b, v));
        expect(changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter])).toEqual([
          ['crusoe-node-pool', 'workers', a * gpusOf(type), b * gpusOf(type)],
        ]);
        expect(state).toBe('read');
      }),
      { numRuns: 30 },
    );
  });

  it('a pool of a CPU type resized is no capacity', async () => {
    await fc.assert(
      fc.asyncProperty(cpuType, fc.integer({ min: 0, max: 32 }), fc.boolean(), async (type, a, v) => {
        const { changes, state } = await coverageOf(pool(type, a, v), pool(type, a + 1, v));
        expect(changes).toEqual([]);
        expect(state).not.toBe('not-followed');
      }),
      { numRuns: 30 },
    );
  });

  it('a pool of a type whose GPUs cannot be told resized is not followed', async () => {
    const odd = fc.constantFrom('gpu.h100-80gb.hgx.8x', 'h100-80gb-sxm-ib', 'x9z.8x', 'h100-80gb.0x');
    await fc.assert(
      fc.asyncProperty(odd, fc.integer({ min: 0, max: 32 }), fc.boolean(), async (type, a, v) => {
        const { changes, state } = await coverageOf(pool(type, a, v), pool(type, a + 1, v));
        expect(changes).toEqual([]);
        expect(state).toBe('not-followed');
      }),
      { numRuns: 20 },
    );
  });
});
