import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { embeddedYaml } from './nested-objects.js';
import { changeRows, detectPr, edited, lineIn } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/** A PR that edits one file of `base`; returns the head text and what detection says. */
async function pr(base: Tree, file: string, from: string, to: string) {
  const head = edited(base, [[file, from, to]]);
  return { text: head[file] ?? '', result: await detectPr(base, head) };
}

// kube-prometheus-stack / bitnami style: whole objects in a values list.
const EXTRA_OBJECTS = `# values for the platform chart
replicaCount: 1
extraObjects:
  - apiVersion: kueue.x-k8s.io/v1beta1
    kind: ResourceFlavor
    metadata:
      name: a100-80gb
    spec:
      nodeLabels:
        cloud.google.com/gke-accelerator: nvidia-a100-80gb
  - apiVersion: kueue.x-k8s.io/v1beta1
    kind: ClusterQueue
    metadata:
      name: research
    spec:
      cohort: org
      namespaceSelector: {}
      resourceGroups:
        - coveredResources: ["cpu", "nvidia.com/gpu"]
          flavors:
            - name: a100-80gb
              resources:
                - name: cpu
                  nominalQuota: 96
                - name: nvidia.com/gpu
                  nominalQuota: 8
`;

// The raw charts (bedag/raw, incubator/raw) render every item of \`resources\`.
const RAW_NODEPOOL = `resources:
  - apiVersion: karpenter.sh/v1
    kind: NodePool
    metadata:
      name: gpu-a10g
    spec:
      limits:
        cpu: 512
        nvidia.com/gpu: 16
      template:
        spec:
          requirements:
            - key: node.kubernetes.io/instance-type
              operator: In
              values: ["g5.12xlarge"]
          nodeClassRef:
            group: karpenter.k8s.aws
            kind: EC2NodeClass
            name: gpu
`;

describe('Kubernetes objects listed in Helm values', () => {
  it('extraObjects: raising a nested ClusterQueue quota is a change at its line, with the model of the flavor beside it', async () => {
    const file = 'charts/platform/values-prod.yaml';
    const { text, result } = await pr({ [file]: EXTRA_OBJECTS }, file, 'nominalQuota: 8', 'nominalQuota: 16');
    expect(changeRows(result)).toEqual([['kueue-cluster-queue', 'research', 8, 16, 'A100', file, lineIn(text, 'nominalQuota: 16')]]);
    expect(result.changes[0]?.after?.cohort).toBe('org');
    expect(result.diagnostics).toEqual([]);
  });

  it('a raw chart resources list: a nested NodePool GPU limit 16 → 32', async () => {
    const file = 'clusters/prod/karpenter-nodepools.values.yaml';
    const { text, result } = await pr({ [file]: RAW_NODEPOOL }, file, 'nvidia.com/gpu: 16', 'nvidia.com/gpu: 32');
    expect(changeRows(result)).toEqual([['karpenter-nodepool', 'gpu-a10g', 16, 32, 'A10G', file, lineIn(text, 'nvidia.com/gpu: 32')]]);
  });

  it('a nested pool that gains a GPU limit was unbounded before, and says so', async () => {
    const file = 'values.yaml';
    const unbounded = RAW_NODEPOOL.replace('        nvidia.com/gpu: 16\n', '');
    const { text, result } = await pr({ [file]: unbounded }, file, '        cpu: 512\n', '        cpu: 512\n        nvidia.com/gpu: 8\n');
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      {
        file,
        line: lineIn(text, 'nvidia.com/gpu: 8'),
        severity: 'warning',
        message: `gpu-a10g: the pool was unbounded before this change (no nvidia.com/gpu limit at ${file}:${lineIn(text, 'apiVersion: karpenter.sh/v1')}); it is now limited to 8 GPUs`,
      },
    ]);
  });

  it('the same queue in a top-level document is read once, not again as embedded', async () => {
    const file = 'queues.yaml';
    // The objects of EXTRA_OBJECTS as documents of their own, flavor and queue.
    const top = EXTRA_OBJECTS.split('\n')
      .slice(3)
      .map((l) => l.slice(4).replace(/^apiVersion/, '---\napiVersion'))
      .join('\n');
    const { result } = await pr({ [file]: top }, file, 'nominalQuota: 8', 'nominalQuota: 12');
    expect(changeRows(result).map((r) => r.slice(0, 5))).toEqual([['kueue-cluster-queue', 'research', 8, 12, 'A100']]);
  });

  it('a JSON values file places flow-style objects at their lines', async () => {
    const file = 'values.json';
    const json = `{
  "extraManifests": [
    {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "batch"},
     "spec": {"resourceGroups": [{"coveredResources": ["nvidia.com/gpu"], "flavors": [{"name": "default",
       "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 4}]}]}]}}
  ]
}
`;
    const { text, result } = await pr({ [file]: json }, file, '"nominalQuota": 4', '"nominalQuota": 6');
    expect(changeRows(result)).toEqual([['kueue-cluster-queue', 'batch', 4, 6, null, file, lineIn(text, '"nominalQuota": 6')]]);
  });

  it('kind: List items are objects too', async () => {
    const file = 'list.yaml';
    const list = `apiVersion: v1\nkind: List\nitems:\n${RAW_NODEPOOL.replace('resources:\n', '')}`;
    const { text, result } = await pr({ [file]: list }, file, 'nvidia.com/gpu: 16', 'nvidia.com/gpu: 24');
    expect(changeRows(result)).toEqual([['karpenter-nodepool', 'gpu-a10g', 16, 24, 'A10G', file, lineIn(text, 'nvidia.com/gpu: 24')]]);
  });
});

const ARGO_APP = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: gpu-queues
  namespace: argocd
spec:
  project: platform
  destination:
    server: https://kubernetes.default.svc
    namespace: kueue-system
  source:
    repoURL: https://bedag.github.io/helm-charts/
    chart: raw
    targetRevision: 2.0.0
    helm:
      valuesObject:
        resources:
          - apiVersion: kueue.x-k8s.io/v1beta1
            kind: ClusterQueue
            metadata:
              name: inference
            spec:
              resourceGroups:
                - coveredResources: ["nvidia.com/gpu"]
                  flavors:
                    - name: l4
                      resources:
                        - name: nvidia.com/gpu
                          nominalQuota: 4
`;

describe('values handed to a chart by Argo CD, Flux and Terraform', () => {
  it('Argo CD helm.valuesObject', async () => {
    const file = 'apps/gpu-queues.yaml';
    const { text, result } = await pr({ [file]: ARGO_APP }, file, 'nominalQuota: 4', 'nominalQuota: 12');
    expect(changeRows(result)).toEqual([['kueue-cluster-queue', 'inference', 4, 12, null, file, lineIn(text, 'nominalQuota: 12')]]);
  });

  it("Argo CD helm.values as a string: lines inside the string are the file's lines", async () => {
    const file = 'apps/gpu-queues.yaml';
    const asString = ARGO_APP.replace('      valuesObject:\n', '      values: |\n');
    const { text, result } = await pr({ [file]: asString }, file, 'nominalQuota: 4', 'nominalQuota: 6');
    expect(changeRows(result)).toEqual([['kueue-cluster-queue', 'inference', 4, 6, null, file, lineIn(text, 'nominalQuota: 6')]]);
  });

  it('a templated quota inside a values string is reported by expression, never counted', async () => {
    const file = 'apps/gpu-queues.yaml';
    const templated = ARGO_APP.replace('      valuesObject:\n', '      values: |\n').replace(
      'nominalQuota: 4',
      'nominalQuota: {{ .Values.gpus }}',
    );
    const { text, result } = await pr({ [file]: templated }, file, 'chart: raw', 'chart: raw # pinned');
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      {
        file,
        line: lineIn(text, 'nominalQuota: {{'),
        severity: 'warning',
        message:
          'Application gpu-queues › spec.source.helm.values › resources[0]: ClusterQueue inference, flavor l4, nvidia.com/gpu: nominalQuota is the template expression {{ .Values.gpus }}; the GPU quota cannot be read until the template is rendered',
      },
    ]);
  });

  it('Flux HelmRelease spec.values with a Karpenter nodePool block', async () => {
    const file = 'clusters/prod/karpenter-gpu.yaml';
    const release = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: karpenter-gpu
spec:
  chart:
    spec:
      chart: ./charts/karpenter-resources
  values:
    name: gpu-p5
    nodePool:
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["p5.48xlarge"]
      limits:
        nvidia.com/gpu: 16
`;
    const { text, result } = await pr({ [file]: release }, file, 'nvidia.com/gpu: 16', 'nvidia.com/gpu: 32');
    expect(changeRows(result)).toEqual([['karpenter-nodepool', 'gpu-p5', 16, 32, 'H100', file, lineIn(text, 'nvidia.com/gpu: 32')]]);
  });

  it('Terraform helm_release values heredoc of a raw chart', async () => {
    const file = 'infra/karpenter.tf';
    const indented = RAW_NODEPOOL.split('\n')
      .map((l) => (l === '' ? l : `    ${l}`))
      .join('\n');
    const tf = `resource "helm_release" "gpu_nodepool" {\n  name       = "gpu-nodepool"\n  repository = "https://bedag.github.io/helm-charts/"\n  chart      = "raw"\n  values = [\n    <<-EOF\n${indented}    EOF\n  ]\n}\n`;
    const { text, result } = await pr({ [file]: tf }, file, 'nvidia.com/gpu: 16', 'nvidia.com/gpu: 20');
    expect(changeRows(result)).toEqual([['karpenter-nodepool', 'gpu-a10g', 16, 20, 'A10G', file, lineIn(text, 'nvidia.com/gpu: 20')]]);
  });
});

describe('embeddedYaml', () => {
  it('cuts an object out at its own lines and names where it sits', () => {
    const scan = embeddedYaml(EXTRA_OBJECTS);
    expect(scan.found.map((f) => [f.role, f.where, f.line])).toEqual([
      ['object', 'extraObjects[0]', 4],
      ['object', 'extraObjects[1]', 11],
    ]);
    const queue = scan.found[1]?.text.split('\n') ?? [];
    expect(queue.length).toBe(EXTRA_OBJECTS.split('\n').length);
    expect(queue.slice(0, 10).every((l) => l.trim() === '')).toBe(true);
    expect(queue[10]).toBe('    apiVersion: kueue.x-k8s.io/v1beta1');
  });

  it("does not read a ConfigMap's data strings (the readers do), nor references that are not objects", () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  q.yaml: |\n    apiVersion: kueue.x-k8s.io/v1beta1\n    kind: ClusterQueue\n    metadata:\n      name: x\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  ownerReferences:\n    - apiVersion: apps/v1\n      kind: ReplicaSet\n      name: rs\n`;
    expect(embeddedYaml(text).found).toEqual([]);
  });

  it('objects in templates stamped out per claim (Crossplane Compositions) are not read as capacity', () => {
    const text = `apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: gpu-pool\nspec:\n  resources:\n${RAW_NODEPOOL.replace(
      'resources:\n',
      '',
    )
      .split('\n')
      .map((l) => (l === '' ? l : `  ${l}`))
      .join('\n')}`;
    expect(embeddedYaml(text).found).toEqual([]);
    expect(embeddedYaml(text.replace('kind: Composition', 'kind: List')).found.map((f) => f.where)).toEqual([
      'List gpu-pool › spec.resources[0]',
    ]);
  });

  it('a quoted string holding objects is named, not read', () => {
    const text = `extraManifests:\n  - "apiVersion: karpenter.sh/v1\\nkind: NodePool\\nmetadata:\\n  name: gpu\\n"\n`;
    expect(embeddedYaml(text)).toEqual({
      found: [],
      notes: [{ line: 2, message: match.stringContaining('extraManifests[0]: Kubernetes objects in a quoted or folded string') }],
    });
  });
});
