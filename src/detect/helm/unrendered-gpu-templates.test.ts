import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * A changed template of a chart nothing in the tree installs is rendered with the chart's defaults
 * alone. A GPU pool in a branch the defaults leave off (a flag, a provider switch, a range over a
 * list they leave empty) renders nothing there, yet an install elsewhere enables it: the change is
 * not followed, at the template's line. Generated: the guard, the pool's kind, where the GPU is
 * named (the template's text, a values file beside the chart, its `ci/` folder), and the edit.
 */

type Guard = 'flag' | 'provider' | 'range' | 'with';
type Named = 'template' | 'values-file' | 'ci-values';

const CHART = 'charts/platform';
const T = `${CHART}/templates/pools.yaml`;

/** The pool's body, its machine type `machine` (a value or an expression of the range's item). */
function karpenter(machine: string, limit: string): string {
  return [
    'apiVersion: karpenter.sh/v1',
    'kind: NodePool',
    'metadata:',
    '  name: accelerated',
    'spec:',
    '  limits:',
    `    nvidia.com/gpu: ${limit}`,
    '  template:',
    '    spec:',
    '      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}',
    '      requirements:',
    '        - key: node.kubernetes.io/instance-type',
    '          operator: In',
    `          values: [${machine}]`,
  ].join('\n');
}

function amazonec2(machine: string): string {
  return [
    'apiVersion: rke-machine-config.cattle.io/v1',
    'kind: Amazonec2Config',
    'metadata:',
    '  name: pool',
    '  namespace: fleet-default',
    `instanceType: ${machine}`,
  ].join('\n');
}

function template(guard: Guard, kind: 'karpenter' | 'rancher', named: Named, limit: number): string {
  const inRange = guard === 'range' || guard === 'with';
  const literal = named === 'template' ? 'p4d.24xlarge' : inRange ? '{{ .instanceType }}' : '{{ .Values.pool.instanceType }}';
  const body = kind === 'karpenter' ? karpenter(literal, String(limit)) : amazonec2(literal);
  const open = {
    flag: '{{- if .Values.accelerated.enabled }}',
    provider: '{{- if eq .Values.cloudprovider "amazonec2" }}',
    range: '{{- range .Values.nodepools }}',
    with: '{{- with .Values.extraPool }}',
  }[guard];
  return `${open}\n---\n${body}\n{{- end }}\n`;
}

const DEFAULTS = 'cloudprovider: digitalocean\naccelerated:\n  enabled: false\nnodepools: []\npool:\n  instanceType: m6i.large\n';
const GPU_VALUES =
  'cloudprovider: amazonec2\naccelerated:\n  enabled: true\nnodepools:\n  - instanceType: p4d.24xlarge\nextraPool:\n  instanceType: p4d.24xlarge\npool:\n  instanceType: p4d.24xlarge\n';

function chart(named: Named, tpl: string, extra: Tree = {}): Tree {
  return {
    [`${CHART}/Chart.yaml`]: 'apiVersion: v2\nname: platform\nversion: 0.1.0\n',
    [`${CHART}/values.yaml`]: DEFAULTS,
    ...(named === 'values-file' ? { [`${CHART}/values-aws-gpu.yaml`]: GPU_VALUES } : {}),
    ...(named === 'ci-values' ? { [`${CHART}/ci/gpu-values.yaml`]: GPU_VALUES } : {}),
    [T]: tpl,
    ...extra,
  };
}

async function stateOf(base: Tree, head: Tree) {
  const r = await detectPr(base, head);
  return { rows: changeRows(r), cov: r.coverage.find((c) => c.file === T) };
}

describe('a changed template no install renders, whose GPUs the defaults leave out', () => {
  it('is not followed, at a line of the template, whatever the guard, the kind and where the GPU is named', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Guard>('flag', 'provider', 'range', 'with'),
        fc.constantFrom('karpenter' as const, 'rancher' as const),
        fc.constantFrom<Named>('template', 'values-file', 'ci-values'),
        fc.constantFrom('added', 'edited'),
        fc.integer({ min: 1, max: 64 }),
        async (guard, kind, named, edit, limit) => {
          // Rancher's machine config has no count of its own; the edit there adds it.
          const added = edit === 'added' || kind === 'rancher';
          const base = added ? chart(named, '') : chart(named, template(guard, kind, named, limit));
          const head = chart(named, template(guard, kind, named, limit + 8));
          if (added) delete base[T];
          const { rows, cov } = await stateOf(base, head);
          expect(rows).toEqual([]);
          expect(cov?.state).toBe('not-followed');
          expect(cov?.notFollowed?.[0]?.line).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a GPU pool the defaults enable is counted as before', async () => {
    const on = (limit: number) => chart('template', template('flag', 'karpenter', 'template', limit));
    const base = on(8);
    const head = on(16);
    for (const tree of [base, head]) tree[`${CHART}/values.yaml`] = DEFAULTS.replace('enabled: false', 'enabled: true');
    const { rows, cov } = await stateOf(base, head);
    expect(rows.map((r) => [r[0], r[2], r[3]])).toEqual([['karpenter-nodepool', 8, 16]]);
    expect(cov?.state).toBe('read');
  });

  it('a template that names no GPU, in a chart whose values name none, stays no change', async () => {
    const cpu = (n: number) => template('flag', 'karpenter', 'values-file', n).replace('nvidia.com/gpu', 'cpu');
    const base = chart('template', cpu(10));
    const head = chart('template', cpu(20));
    const { rows, cov } = await stateOf(base, head);
    expect(rows).toEqual([]);
    expect(cov?.state).not.toBe('not-followed');
  });
});
