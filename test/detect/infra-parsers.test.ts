import { describe, expect, it } from 'vitest';
import { compareSides } from '../../src/detect/compare.js';
import { detectFile } from '../../src/detect/detect-file.js';
import type { ParseResult } from '../../src/detect/parser.js';
import { lineOf, yaml } from './fixtures.js';

const counts = (r: ParseResult) => r.decls.map((d) => [d.kind, d.name, d.gpus]);
const warnings = (r: ParseResult) => r.diagnostics.filter((d) => d.severity === 'warning');

const nodePool = (limit: string, extra = '') => yaml`
  apiVersion: karpenter.sh/v1
  kind: NodePool
  metadata:
    name: gpu
  spec:
    template:
      spec:
        requirements:
          - key: karpenter.k8s.aws/instance-type
            operator: In
            values: ["p5.48xlarge"]
    limits:
      cpu: "1000"
      nvidia.com/gpu: ${limit}
  ${extra}
`;

describe('Karpenter', () => {
  it.each([
    ['16', 16],
    ['"16"', 16],
    ["'24'", 24],
  ])('reads limit %s as a quantity', (limit, gpus) => {
    const r = detectFile('pool.yaml', nodePool(limit));
    expect(counts(r)).toEqual([['karpenter-nodepool', 'gpu', gpus]]);
    expect(r.decls[0]?.gpuModel).toBe('H100');
    expect(r.decls[0]?.line).toBe(lineOf(nodePool(limit), 'nvidia.com/gpu:'));
  });

  it('flags a templated limit, naming it, and keeps the pool as unknown', () => {
    const text = nodePool('{{ .Values.gpuLimit }}');
    const r = detectFile('templates/pool.yaml', text);
    expect(r.decls).toEqual([]);
    expect(r.unresolved?.map((u) => u.name)).toEqual(['gpu']);
    expect(warnings(r).map((d) => [d.line, d.message.includes('{{ .Values.gpuLimit }}')])).toEqual([
      [lineOf(text, 'nvidia.com/gpu:'), true],
    ]);
  });

  it('takes the last of repeated keys, as Kubernetes does', () => {
    const text = nodePool('8').replace('    nvidia.com/gpu: 8', '    nvidia.com/gpu: 8\n    nvidia.com/gpu: 32');
    expect(counts(detectFile('pool.yaml', text))).toEqual([['karpenter-nodepool', 'gpu', 32]]);
  });

  it('does not count a commented-out limit: the pool is unbounded', () => {
    const text = nodePool('8').replace('    nvidia.com/gpu: 8', '    # nvidia.com/gpu: 8');
    const r = detectFile('pool.yaml', text);
    expect(r.decls).toEqual([]);
    expect(warnings(r)[0]?.message).toContain('no nvidia.com/gpu limit: the pool can grow without bound');
  });

  it('counts a static pool pinned to one type as replicas × GPUs per instance', () => {
    const text = nodePool('80').replace('  template:', '  replicas: 3\n  template:');
    expect(counts(detectFile('pool.yaml', text))).toEqual([['karpenter-nodepool', 'gpu', 24]]);
  });

  it('reads every NodePool of a multi-document file and ignores CPU pools', () => {
    const cpu = yaml`
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata:
        name: cpu
      spec:
        template:
          spec:
            requirements:
              - key: karpenter.k8s.aws/instance-family
                operator: In
                values: ["m7i"]
    `;
    const r = detectFile('pools.yaml', `${cpu}\n---\n${nodePool('8')}`);
    expect(counts(r)).toEqual([['karpenter-nodepool', 'gpu', 8]]);
    expect(r.diagnostics).toEqual([]);
  });

  it('compares base and head, with a default price', () => {
    const [change] = compareSides(detectFile('pool.yaml', nodePool('8')), detectFile('pool.yaml', nodePool('16')));
    expect(change).toMatchObject({ kind: 'karpenter-nodepool', name: 'gpu', gpusBefore: 8, gpusAfter: 16, delta: 8, gpuModel: 'H100' });
    expect(change?.usdPerMonthDelta).toBeCloseTo(8 * (change?.usdPerGpuHour ?? NaN) * 730, 2);
  });
});

const eksctl = (size: string, type = 'instanceType: p4d.24xlarge') => yaml`
  apiVersion: eksctl.io/v1alpha5
  kind: ClusterConfig
  metadata:
    name: c
  managedNodeGroups:
    - name: cpu
      instanceType: m5.large
      maxSize: 50
    - name: gpu
      ${type}
      minSize: 0
      ${size}
  #  - name: old-gpu
  #    instanceType: p5.48xlarge
  #    maxSize: 10
`;

describe('eksctl', () => {
  it('counts maxSize × GPUs per instance, skipping CPU and commented-out groups', () => {
    expect(counts(detectFile('cluster.yaml', eksctl('maxSize: "4"')))).toEqual([['eksctl-nodegroup', 'gpu', 32]]);
  });

  it('falls back to desiredCapacity', () => {
    expect(counts(detectFile('cluster.yaml', eksctl('desiredCapacity: 2')))).toEqual([['eksctl-nodegroup', 'gpu', 16]]);
  });

  it('reads instanceTypes lists at the most GPUs per instance, and says so', () => {
    const r = detectFile('cluster.yaml', eksctl('maxSize: 2', 'instanceTypes: ["g5.xlarge", "g5.12xlarge"]'));
    expect(counts(r)).toEqual([['eksctl-nodegroup', 'gpu', 8]]);
    expect(r.diagnostics.some((d) => d.severity === 'info' && d.message.includes('differ in GPUs'))).toBe(true);
  });

  it('flags a templated size and an unknown GPU type', () => {
    const templated = detectFile('cluster.yaml', eksctl('maxSize: ${MAX}'));
    expect(templated.decls).toEqual([]);
    expect(warnings(templated)[0]?.message).toContain('${MAX}');
    const unknown = detectFile('cluster.yaml', eksctl('maxSize: 2', 'instanceType: p9.48xlarge'));
    expect(unknown.unresolved?.map((u) => u.name)).toEqual(['gpu']);
    expect(warnings(unknown)[0]?.message).toContain('p9.48xlarge is not in the catalog');
  });

  it('compares base and head', () => {
    const changes = compareSides(detectFile('c.yaml', eksctl('maxSize: 4')), detectFile('c.yaml', eksctl('maxSize: 6')));
    expect(changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.gpuModel])).toEqual([
      ['eksctl-nodegroup', 'gpu', 32, 48, 'A100'],
    ]);
  });
});

const capi = (replicas: string, annotations = '') => yaml`
  apiVersion: cluster.x-k8s.io/v1beta1
  kind: MachineDeployment
  metadata:
    name: gpu-md
    annotations: {${annotations}}
  spec:
    replicas: ${replicas}
    template:
      spec:
        infrastructureRef:
          apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
          kind: AWSMachineTemplate
          name: gpu-tmpl
  ---
  apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
  kind: AWSMachineTemplate
  metadata:
    name: gpu-tmpl
  spec:
    template:
      spec:
        instanceType: g5.12xlarge
`;

describe('Cluster API', () => {
  it('counts replicas × the referenced template type', () => {
    const r = detectFile('md.yaml', capi('3'));
    expect(counts(r)).toEqual([['capi-machinedeployment', 'gpu-md', 12]]);
    expect(r.decls[0]?.gpuModel).toBe('A10G');
  });

  it('lets the autoscaler max-size annotation win over replicas', () => {
    const r = detectFile('md.yaml', capi('1', '"cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size": "5"'));
    expect(counts(r)).toEqual([['capi-machinedeployment', 'gpu-md', 20]]);
  });

  it('names an envsubst replica count with its default', () => {
    const r = detectFile('md.yaml', capi('${WORKERS:=2}'));
    expect(r.decls).toEqual([]);
    expect(warnings(r)[0]?.message).toContain('${WORKERS:=2} (default 2)');
  });

  it('compares base and head', () => {
    const [change] = compareSides(detectFile('md.yaml', capi('3')), detectFile('md.yaml', capi('1')));
    expect(change).toMatchObject({ kind: 'capi-machinedeployment', gpusBefore: 12, gpusAfter: 4, delta: -8 });
    expect(change?.usdPerMonthDelta).toBeLessThan(0);
  });
});

const kcc = (autoscaling: string) => yaml`
  apiVersion: container.cnrm.cloud.google.com/v1beta1
  kind: ContainerNodePool
  metadata:
    name: l4-pool
  spec:
    location: us-central1
    nodeLocations: ["us-central1-a", "us-central1-b"]
    ${autoscaling}
    nodeConfig:
      machineType: g2-standard-24
`;

describe('GKE Config Connector', () => {
  it('uses the machine type when no accelerator is listed, per zone', () => {
    const r = detectFile('np.yaml', kcc('autoscaling: {maxNodeCount: 3}'));
    expect(counts(r)).toEqual([['gke-node-pool', 'l4-pool', 12]]);
    expect(r.decls[0]?.gpuModel).toBe('L4');
  });

  it('takes totalMaxNodeCount as the total', () => {
    expect(counts(detectFile('np.yaml', kcc('autoscaling: {totalMaxNodeCount: 5}')))).toEqual([['gke-node-pool', 'l4-pool', 10]]);
  });

  it('compares base and head', () => {
    const changes = compareSides(detectFile('np.yaml', kcc('nodeCount: 1')), detectFile('np.yaml', kcc('nodeCount: 2')));
    expect(changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[4, 8]]);
  });
});

const sharing = (replicas: string) => yaml`
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: plugin-config
  data:
    shared: |-
      version: v1
      sharing:
        timeSlicing:
          renameByDefault: true
          resources:
            - name: nvidia.com/gpu
              replicas: ${replicas}
`;

describe('GPU sharing', () => {
  it('reads a config held in a ConfigMap string, at its line in the file', () => {
    const text = sharing('4');
    const r = detectFile('cm.yaml', text);
    expect(counts(r)).toEqual([['gpu-sharing', 'plugin-config/shared', 4]]);
    expect(r.decls[0]?.line).toBe(lineOf(text, 'replicas:'));
    expect(r.decls[0]?.parts[0]?.resource).toBe('nvidia.com/gpu.shared');
    expect(r.diagnostics.some((d) => d.severity === 'info' && d.message.includes('not the hardware'))).toBe(true);
  });

  it('prices nothing: sharing buys no hardware', () => {
    const [change] = compareSides(detectFile('cm.yaml', sharing('2')), detectFile('cm.yaml', sharing('8')));
    expect(change).toMatchObject({ kind: 'gpu-sharing', gpusBefore: 2, gpusAfter: 8, usdPerGpuHour: null, usdPerMonthDelta: null });
  });

  it('does not count a MIG layout with a negative or absurd device count, and says why', () => {
    const layout = (count: string) => yaml`
      version: v1
      mig-configs:
        all-1g.5gb:
          - devices: all
            mig-enabled: true
            mig-devices:
              "1g.5gb": ${count}
    `;
    expect(counts(detectFile('mig.yaml', layout('7')))).toEqual([['gpu-sharing', 'mig-parted/all-1g.5gb', 7]]);
    for (const bad of ['-3', '1.7976931348623157e+308']) {
      const r = detectFile('mig.yaml', layout(bad));
      expect(r.decls).toEqual([]);
      expect(warnings(r)[0]?.message).toMatch(/mig-devices count .*(negative|not a real count)/);
    }
  });

  it('flags templated replicas', () => {
    const r = detectFile('cm.yaml', sharing('${REPLICAS}'));
    expect(r.decls).toEqual([]);
    expect(warnings(r)[0]?.message).toContain('${REPLICAS}');
  });
});

describe('KAITO and Cluster Toolkit', () => {
  it('counts a KAITO workspace and compares it', () => {
    const ws = (n: number) => yaml`
      apiVersion: kaito.sh/v1beta1
      kind: Workspace
      metadata:
        name: llm
      resource:
        count: ${n}
        instanceType: Standard_NC24ads_A100_v4
    `;
    const changes = compareSides(detectFile('ws.yaml', ws(1)), detectFile('ws.yaml', ws(3)));
    expect(changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.gpuModel])).toEqual([['aks-node-pool', 'llm', 1, 3, 'A100']]);
  });

  it('refuses a count too large to be real instead of overflowing to Infinity', () => {
    const ws = yaml`
      apiVersion: kaito.sh/v1beta1
      kind: Workspace
      metadata:
        name: llm
      resource:
        count: 1.7976931348623157e+308
        instanceType: Standard_NC24ads_A100_v4
    `;
    const r = detectFile('ws.yaml', ws);
    expect(r.decls).toEqual([]);
    expect(warnings(r)[0]?.message).toMatch(/not a real count/);
  });

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
