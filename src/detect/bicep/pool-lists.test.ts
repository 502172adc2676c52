import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from '../detect-changes.js';
import { detectPr } from '../../../test/detect/real-fixtures.js';

/**
 * A cluster's `agentPoolProfiles` written every common way (an array, variables naming pools,
 * `concat()` and `union()` of lists, a loop, a variable holding the list) reads as the same pools:
 * a GPU count changed is counted, a CPU pool changed or the list rewritten in another shape is no
 * change, and a list that cannot be read is not followed with no count printed for it.
 */

const FILE = 'infra/aks.bicep';

const sysPool = (n: number) => `{ name: 'system', vmSize: 'Standard_D4s_v5', count: ${n}, mode: 'System' }`;
const gpuPool = (n: number) =>
  `{ name: 'gpu', vmSize: 'Standard_NC6s_v3', enableAutoScaling: true, minCount: 0, maxCount: ${n}, mode: 'User' }`;

/** A way to write the list [system pool, GPU pool]: the declarations it needs, and the list. */
type Shape = (sys: number, gpu: number) => { vars: string; list: string };

const SHAPES: Record<string, Shape> = {
  array: (s, g) => ({ vars: '', list: `[\n      ${sysPool(s)}\n      ${gpuPool(g)}\n    ]` }),
  'variables named in an array': (s, g) => ({
    vars: `var systemPool = ${sysPool(s)}\nvar gpuNodePool = ${gpuPool(g)}\n`,
    list: '[\n      systemPool\n      gpuNodePool\n    ]',
  }),
  'concat(variable, [pool])': (s, g) => ({
    vars: `var pools = [\n  ${sysPool(s)}\n]\n`,
    list: `concat(pools, [\n      ${gpuPool(g)}\n    ])`,
  }),
  'concat([pool], variable)': (s, g) => ({
    vars: `var gpuPools = [\n  ${gpuPool(g)}\n]\n`,
    list: `concat([\n      ${sysPool(s)}\n    ], gpuPools)`,
  }),
  'nested concat': (s, g) => ({ vars: '', list: `sys.concat(concat([\n      ${sysPool(s)}\n    ]), [\n      ${gpuPool(g)}\n    ])` }),
  'union() with a repeated pool': (s, g) => ({
    vars: `var pools = [\n  ${sysPool(s)}\n  ${gpuPool(g)}\n]\n`,
    list: `union(pools, [\n      ${sysPool(s)}\n    ])`,
  }),
  'concat() with a loop': (s, g) => ({
    vars: `var gpuSizes = [\n  'Standard_NC6s_v3'\n]\n`,
    list: `concat([\n      ${sysPool(s)}\n    ], [for size in gpuSizes: { name: 'gpu', vmSize: size, enableAutoScaling: true, minCount: 0, maxCount: ${g}, mode: 'User' }])`,
  }),
  'a variable holding concat()': (s, g) => ({
    vars: `var allPools = concat([\n  ${sysPool(s)}\n], [\n  ${gpuPool(g)}\n])\n`,
    list: 'allPools',
  }),
};

function template(shape: Shape, sys: number, gpu: number, extraParam = ''): string {
  const { vars, list } = shape(sys, gpu);
  return `param location string = 'eastus'
${extraParam}${vars}
resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {
  name: 'ml'
  location: location
  properties: {
    dnsPrefix: 'ml'
    agentPoolProfiles: ${list}
  }
}
`;
}

const flagged = (r: DetectedChanges) =>
  r.coverage.some((c) => c.state === 'not-followed') || r.diagnostics.some((d) => d.severity === 'error');
const rows = (r: DetectedChanges) => r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter]);
const review = (base: string, head: string) => detectPr({ [FILE]: base }, { [FILE]: head });
const names = Object.keys(SHAPES);
const shapeOf = (name: string): Shape => SHAPES[name] as Shape;

describe('an AKS pool list, in every shape', () => {
  it.each(names)('%s: the GPU pool 2 → 5 nodes is counted', async (name) => {
    const r = await review(template(shapeOf(name), 3, 2), template(shapeOf(name), 3, 5));
    expect(rows(r)).toEqual([['gpu', 2, 5]]);
    expect(flagged(r)).toBe(false);
  });

  it.each(names)('%s: the system pool 3 → 5 nodes is no change', async (name) => {
    const r = await review(template(shapeOf(name), 3, 2), template(shapeOf(name), 5, 2));
    expect(rows(r)).toEqual([]);
    expect(flagged(r)).toBe(false);
  });

  it.each(names.flatMap((from) => names.filter((to) => to !== from).map((to) => [from, to])))(
    'rewritten from %s to %s: no change',
    async (from, to) => {
      const r = await review(template(shapeOf(from), 3, 2), template(shapeOf(to), 3, 2));
      expect(rows(r)).toEqual([]);
      expect(flagged(r)).toBe(false);
    },
  );
});

describe('an AKS pool list that cannot be read', () => {
  // A parameter with no default and no parameter file: what it adds cannot be known.
  const unknown = (sys: number, gpu: number) => ({
    vars: `var pools = [\n  ${sysPool(sys)}\n  ${gpuPool(gpu)}\n]\n`,
    list: 'concat(pools, extraPools)',
  });
  const PARAM = 'param extraPools array\n';

  it.each(names)('from %s: not followed, and no GPU count is printed for it', async (name) => {
    const r = await review(template(shapeOf(name), 3, 2), template(unknown, 3, 2, PARAM));
    expect(rows(r)).toEqual([]);
    expect(flagged(r)).toBe(true);
  });

  it.each(names)('to %s: not followed, and no GPU count is printed for it', async (name) => {
    const r = await review(template(unknown, 3, 2, PARAM), template(shapeOf(name), 3, 5));
    expect(rows(r)).toEqual([]);
    expect(flagged(r)).toBe(true);
  });
});
