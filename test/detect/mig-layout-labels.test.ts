import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

/**
 * The GPU Operator's MIG manager partitions each GPU of a node by the layout its
 * `nvidia.com/mig.config` label names (`all-1g.5gb` makes one A100 seven GPUs), and a node gets
 * that label wherever nodes get labels: an NFD NodeFeatureRule, a pool's labels in any format, a
 * `kubectl label` script. No reader links a layout to a count, so a change of layout must end not
 * followed, never "no change"; a change beside a layout that stands as it was is read as usual.
 */

const LAYOUTS = ['all-disabled', 'all-1g.5gb', 'all-1g.10gb', 'all-2g.10gb', 'all-3g.20gb', 'all-balanced', 'custom-7x'];

/** A carrier writes a file that sets the label to `layout`, with `nodes` nodes where it sizes a pool. */
interface Carrier {
  path: string;
  write(layout: string, nodes: number, quote: string): string;
}

const CARRIERS: Carrier[] = [
  {
    path: 'setup/k8s/mig-nodegroup-labels.yaml',
    write: (layout, _nodes, q) =>
      [
        'apiVersion: nfd.k8s-sigs.io/v1alpha1',
        'kind: NodeFeatureRule',
        'metadata:',
        '  name: mig-nodegroup-labels',
        'spec:',
        '  rules:',
        '    - name: "MIG nodes"',
        '      labels:',
        `        ${q}nvidia.com/mig.config${q}: ${q}${layout}${q}`,
        '      matchFeatures:',
        '        - feature: system.name',
        '          matchExpressions:',
        '            nodename: {op: InRegexp, value: ["-mig-"]}',
        '',
      ].join('\n'),
  },
  {
    path: 'scripts/label-mig.sh',
    write: (layout, _nodes, q) => `#!/bin/sh\nkubectl label nodes -l pool=gpu ${q}nvidia.com/mig.config=${layout}${q} --overwrite\n`,
  },
  {
    path: 'eksctl/cluster.yaml',
    write: (layout, nodes, q) =>
      [
        'apiVersion: eksctl.io/v1alpha5',
        'kind: ClusterConfig',
        'metadata: {name: lab, region: us-west-2}',
        'managedNodeGroups:',
        '  - name: cpu',
        '    instanceType: m6i.large',
        `    desiredCapacity: ${nodes}`,
        '  - name: a100',
        '    instanceType: p4d.24xlarge',
        '    desiredCapacity: 2',
        '    labels:',
        `      ${q}nvidia.com/mig.config${q}: ${q}${layout}${q}`,
        '',
      ].join('\n'),
  },
  {
    path: 'karpenter/a100.yaml',
    write: (layout, nodes, q) =>
      [
        'apiVersion: karpenter.sh/v1',
        'kind: NodePool',
        'metadata: {name: a100}',
        'spec:',
        '  template:',
        '    metadata:',
        '      labels:',
        `        ${q}nvidia.com/mig.config${q}: ${q}${layout}${q}`,
        '    spec:',
        '      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}',
        '      requirements:',
        '        - {key: node.kubernetes.io/instance-type, operator: In, values: ["p4d.24xlarge"]}',
        '  limits:',
        '    nvidia.com/gpu: 16',
        '---',
        'apiVersion: karpenter.sh/v1',
        'kind: NodePool',
        'metadata: {name: cpu}',
        'spec:',
        '  template:',
        '    spec:',
        '      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}',
        '      requirements:',
        '        - {key: node.kubernetes.io/instance-type, operator: In, values: ["m6i.large"]}',
        '  limits:',
        `    cpu: ${nodes * 2}`,
        '',
      ].join('\n'),
  },
  {
    path: 'gke/pools.tf',
    write: (layout, nodes) =>
      [
        'resource "google_container_node_pool" "a100" {',
        '  name       = "a100"',
        '  cluster    = "lab"',
        '  location   = "us-central1-a"',
        '  node_count = 2',
        '  node_config {',
        '    machine_type = "a2-highgpu-1g"',
        `    labels = { "nvidia.com/mig.config" = "${layout}" }`,
        '    guest_accelerator {',
        '      type  = "nvidia-tesla-a100"',
        '      count = 1',
        '    }',
        '  }',
        '}',
        '',
        'resource "google_container_node_pool" "cpu" {',
        '  name       = "cpu"',
        '  cluster    = "lab"',
        '  location   = "us-central1-a"',
        `  node_count = ${nodes}`,
        '  node_config {',
        '    machine_type = "e2-standard-4"',
        '  }',
        '}',
        '',
      ].join('\n'),
  },
];

const tree = (c: Carrier, layout: string, nodes: number, quote: string): Tree => ({ [c.path]: c.write(layout, nodes, quote) });

const arbCase = fc.record({
  carrier: fc.constantFrom(...CARRIERS),
  layouts: fc.uniqueArray(fc.constantFrom(...LAYOUTS), { minLength: 2, maxLength: 2 }),
  quote: fc.constantFrom('', '"', "'"),
  nodes: fc.integer({ min: 1, max: 9 }),
});

describe('a node label that picks a MIG layout', () => {
  it('is not followed when the layout changes, whatever carries the label', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ carrier, layouts, quote, nodes }) => {
        const [from = '', to = ''] = layouts;
        const r = await detectPr(tree(carrier, from, nodes, quote), tree(carrier, to, nodes, quote));
        const entry = r.coverage.find((f) => f.file === carrier.path);
        expect(entry?.state).toBe('not-followed');
        expect(r.changes).toEqual([]);
      }),
      { numRuns: 24 },
    );
  });

  it('is not followed when a layout is added to a pool that had none', async () => {
    for (const carrier of CARRIERS) {
      const before: Tree = { [carrier.path]: carrier.write('x', 2, '').replace(/^.*nvidia\.com\/mig\.config.*$\n?/m, '') };
      const r = await detectPr(before, tree(carrier, 'all-1g.5gb', 2, ''));
      expect(r.coverage.find((f) => f.file === carrier.path)?.state, carrier.path).toBe('not-followed');
    }
  });

  it('leaves a CPU-only change beside a layout that stands as it was read, with no GPU change', async () => {
    // The pools the parsers read; the NFD rule and the script have no pool beside the label.
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ carrier, layouts, quote, nodes }) => {
        fc.pre(carrier.path.endsWith('.tf') || carrier.path.startsWith('eksctl') || carrier.path.startsWith('karpenter'));
        const [layout = ''] = layouts;
        const r = await detectPr(tree(carrier, layout, nodes, quote), tree(carrier, layout, nodes + 1, quote));
        expect(r.coverage.filter((f) => f.state === 'not-followed')).toEqual([]);
        expect(r.changes).toEqual([]);
      }),
      { numRuns: 16 },
    );
  });

  it('says nothing of capacity where a workload only selects nodes by it, or where MIG status is read', async () => {
    const deployment = (replicas: number) =>
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: infer}',
        'spec:',
        `  replicas: ${replicas}`,
        '  template:',
        '    spec:',
        '      nodeSelector:',
        '        nvidia.com/mig.config: all-1g.5gb',
        '      containers: [{name: x, image: x}]',
        '',
      ].join('\n');
    const wait = (t: string) => `#!/bin/sh\nsleep ${t}\nkubectl get nodes -l nvidia.com/mig.config.state=success\n`;
    for (const [before, after] of [
      [{ 'apps/infer.yaml': deployment(1) }, { 'apps/infer.yaml': deployment(3) }],
      [{ 'scripts/wait.sh': wait('5m') }, { 'scripts/wait.sh': wait('10m') }],
    ] as [Tree, Tree][]) {
      const r = await detectPr(before, after);
      expect(r.coverage.filter((f) => f.state === 'not-followed')).toEqual([]);
      expect(r.changes).toEqual([]);
    }
  });
});
