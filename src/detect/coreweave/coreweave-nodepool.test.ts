import { describe, expect, it } from 'vitest';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';
import { coreWeaveShape } from './coreweave-instance.js';
import { coreWeaveNodePoolParser } from './coreweave-nodepool.js';

/** The shape of CoreWeave's "Autoscale Node Pools" example. */
const pool = (o: { type?: string; target?: number | string; min?: number; max?: number | string; autoscaling?: boolean | string } = {}) =>
  `apiVersion: compute.coreweave.com/v1alpha1
kind: NodePool
metadata:
  name: train-h100
spec:
  computeClass: default
  instanceType: ${o.type ?? 'gd-8xh100ib-i128'}
  autoscaling: ${String(o.autoscaling ?? false)}
  targetNodes: ${o.target ?? 2}
  minNodes: ${o.min ?? 0}
  maxNodes: ${o.max ?? 4}
  nodeLabels:
    team: research
`;
const FILE = 'clusters/prod/nodepools/train-h100.yaml';

describe('CoreWeave instance types', () => {
  it('give the GPUs per node and their model from the name', () => {
    expect(coreWeaveShape('gd-8xh100ib-i128')).toEqual({ gpus: 8, model: 'H100' });
    expect(coreWeaveShape('gd-8xh200ib-i128')).toEqual({ gpus: 8, model: 'H200' });
    expect(coreWeaveShape('gd-8xa100-i128')).toEqual({ gpus: 8, model: 'A100' });
    expect(coreWeaveShape('gd-1xgh200')).toEqual({ gpus: 1, model: 'GH200' });
    expect(coreWeaveShape('gd-8xl40s-i128')).toEqual({ gpus: 8, model: 'L40S' });
    expect(coreWeaveShape('gb200-4x')).toEqual({ gpus: 4, model: 'GB200' });
    expect(coreWeaveShape('GB300-4X')).toEqual({ gpus: 4, model: 'GB300' });
    expect(coreWeaveShape('cd-hp-a96-genoa')).toBe('cpu');
    expect(coreWeaveShape('turin-gp-l')).toBeNull();
    expect(coreWeaveShape('gd-0xh100')).toBeNull();
  });
});

describe('CoreWeave NodePool', () => {
  it('without autoscaling counts targetNodes × the GPUs of its instance type', () => {
    const r = coreWeaveNodePoolParser.parse(FILE, pool({ target: 3 }));
    expect(r.decls.map((d) => [d.kind, d.name, d.gpus, d.gpuModel, d.gpuStep, d.line])).toEqual([
      ['coreweave-nodepool', 'train-h100', 24, 'H100', 8, 9],
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it('with autoscaling counts maxNodes, what the autoscaler may grow it to', () => {
    for (const autoscaling of [true, 'true']) {
      const r = coreWeaveNodePoolParser.parse(FILE, pool({ autoscaling, target: 1, max: 6 }));
      expect(r.decls.map((d) => [d.gpus, d.line])).toEqual([[48, 11]]);
    }
  });

  it('is no GPU pool on a CPU instance type, and an unknown count on an unknown one or a template', () => {
    expect(coreWeaveNodePoolParser.parse(FILE, pool({ type: 'cd-hp-a96-genoa' })).decls).toEqual([]);
    const unknown = coreWeaveNodePoolParser.parse(FILE, pool({ type: 'turin-gp-l' }));
    expect(unknown.decls).toEqual([]);
    expect(unknown.unresolved).toEqual([expect.objectContaining({ kind: 'coreweave-nodepool', name: 'train-h100' })]);
    const templated = coreWeaveNodePoolParser.parse(FILE, pool({ target: '${target_nodes}' }));
    expect(templated.unresolved).toEqual([expect.objectContaining({ name: 'train-h100', line: 9 })]);
    expect(templated.diagnostics[0]?.message).toContain('targetNodes is the template expression ${target_nodes}');
    const noMax = coreWeaveNodePoolParser.parse(FILE, pool({ autoscaling: true }).replace(/ {2}maxNodes:.*\n/, ''));
    expect(noMax.unresolved).toEqual([expect.objectContaining({ unboundedBy: 'maxNodes' })]);
  });

  it('a change of any count of the pool is its change in GPUs, for every count', async () => {
    for (const [from, to] of [
      [1, 2],
      [4, 0],
      [3, 17],
    ] as const) {
      const head = pool({ target: to });
      const result = await detectPr({ [FILE]: pool({ target: from }) }, { [FILE]: head });
      expect(changeRows(result)).toEqual([
        ['coreweave-nodepool', 'train-h100', from * 8, to * 8, 'H100', FILE, lineIn(head, 'targetNodes')],
      ]);
      expect(result.coverage).toEqual([expect.objectContaining({ file: FILE, state: 'read' })]);
    }
  });

  it('reads the same pool behind a List wrapper, an alias, and flow style', async () => {
    const variants = [
      `apiVersion: v1\nkind: List\nitems:\n  - ${pool({ target: 5 }).trimEnd().split('\n').join('\n    ')}\n`,
      pool({ target: 5 }).replace('  targetNodes: 5', '  targetNodes: &n 5').replace('  minNodes: 0', '  minNodes: 0\n  x-copy: *n'),
      `{apiVersion: compute.coreweave.com/v1alpha1, kind: NodePool, metadata: {name: train-h100}, spec: {instanceType: gd-8xh100ib-i128, targetNodes: 5}}\n`,
    ];
    for (const text of variants) {
      const result = await detectPr({ [FILE]: pool({ target: 2 }) }, { [FILE]: text });
      expect(changeRows(result).map((r) => r.slice(0, 4))).toEqual([['coreweave-nodepool', 'train-h100', 16, 40]]);
    }
  });

  it('a CPU-only edit of a GPU pool is no change', async () => {
    const head = pool().replace('team: research', 'team: platform');
    const result = await detectPr({ [FILE]: pool() }, { [FILE]: head });
    expect(result.changes).toEqual([]);
    expect(result.coverage).toEqual([expect.objectContaining({ file: FILE, state: 'read' })]);
  });

  it('a kustomize patch that raises the count is counted as rendered', async () => {
    const base = {
      'cw/base/kustomization.yaml': 'resources:\n  - pool.yaml\n',
      'cw/base/pool.yaml': pool({ target: 2 }),
      'cw/prod/kustomization.yaml': 'resources:\n  - ../base\npatches:\n  - path: more.yaml\n',
      'cw/prod/more.yaml':
        'apiVersion: compute.coreweave.com/v1alpha1\nkind: NodePool\nmetadata:\n  name: train-h100\nspec:\n  targetNodes: 3\n',
    };
    const head = { ...base, 'cw/prod/more.yaml': base['cw/prod/more.yaml'].replace('targetNodes: 3', 'targetNodes: 6') };
    const rows = changeRows(await detectPr(base, head)).map((r) => r.slice(0, 4));
    expect(rows).toEqual([['coreweave-nodepool', 'train-h100', 24, 48]]);
  });
});
