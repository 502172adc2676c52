import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { AWS_TYPES } from '../../src/detect/kit/gpu-types/aws.js';
import { HOURS_PER_MONTH, pricePerGpuHour } from '../../src/detect/kit/gpu-types/index.js';
import { listingPr } from './listing-tree.js';

/**
 * Another GPU model at the same count (`g5.12xlarge` → `g6.12xlarge`, A10G → L4) buys as many GPUs
 * of other hardware at another price: a change of 0 GPUs that names both models and prices the
 * difference, never "no change". The same model at the same count, or a CPU-only edit beside the
 * pool, stays no change. Generated over every pair of EC2 GPU types with whole GPUs.
 */

const GROUP = (type: string, max: number, min: number) => `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata:
  name: ml
  region: us-east-1
managedNodeGroups:
  - name: cpu
    instanceType: m5.xlarge
    minSize: ${min}
    maxSize: 10
  - name: gpu
    instanceType: ${type}
    minSize: 0
    maxSize: ${max}
`;

const whole = AWS_TYPES.filter((t) => Number.isInteger(t.gpus));
const arbPair = fc.tuple(fc.constantFrom(...whole), fc.constantFrom(...whole), fc.integer({ min: 1, max: 16 }));
const path = 'eksctl/cluster.yaml';
const month = (usd: number) => Math.round(usd * HOURS_PER_MONTH * 100) / 100;

describe('a GPU model changed', () => {
  it('at the same count is a change of 0 GPUs naming both models, priced as the difference', async () => {
    await fc.assert(
      fc.asyncProperty(arbPair, async ([from, to, max]) => {
        fc.pre(from.gpus === to.gpus && from.gpuModel !== to.gpuModel);
        const r = await detectChanges(listingPr({ [path]: GROUP(from.type, max, 1) }, { [path]: GROUP(to.type, max, 1) }));
        const gpus = max * from.gpus;
        const after = pricePerGpuHour(to.gpuModel) ?? 0;
        const before = pricePerGpuHour(from.gpuModel) ?? 0;
        expect(
          r.changes.map((c) => [c.name, c.gpuModelBefore, c.gpuModel, c.gpusBefore, c.gpusAfter, c.delta, c.usdPerMonthDelta]),
        ).toEqual([['gpu', from.gpuModel, to.gpuModel, gpus, gpus, 0, month(gpus * after - gpus * before)]]);
      }),
      { numRuns: 40 },
    );
  });

  it('with another count too, the cost is what the head buys less what the base had', async () => {
    await fc.assert(
      fc.asyncProperty(arbPair, async ([from, to, max]) => {
        fc.pre(from.gpus !== to.gpus && from.gpuModel !== to.gpuModel);
        const r = await detectChanges(listingPr({ [path]: GROUP(from.type, max, 1) }, { [path]: GROUP(to.type, max, 1) }));
        const [c] = r.changes;
        expect(c?.gpuModelBefore).toBe(from.gpuModel);
        expect(c?.delta).toBe(max * (to.gpus - from.gpus));
        const priced = month(max * to.gpus * (pricePerGpuHour(to.gpuModel) ?? 0) - max * from.gpus * (pricePerGpuHour(from.gpuModel) ?? 0));
        expect(c?.usdPerMonthDelta).toBe(priced);
      }),
      { numRuns: 20 },
    );
  });

  it('the same model at the same count, or a CPU-only edit beside the pool, is no change', async () => {
    await fc.assert(
      fc.asyncProperty(arbPair, fc.integer({ min: 2, max: 5 }), async ([from, to, max], min) => {
        fc.pre(from.gpus === to.gpus && from.gpuModel === to.gpuModel);
        const r = await detectChanges(listingPr({ [path]: GROUP(from.type, max, 1) }, { [path]: GROUP(to.type, max, min) }));
        expect(r.changes).toEqual([]);
        expect(r.coverage.map((c) => c.state)).toEqual(['read']);
      }),
      { numRuns: 20 },
    );
  });
});
