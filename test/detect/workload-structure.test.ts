import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { accountSignals } from '../../src/detect/kit/signal-scan/account.js';
import { listingPr } from './listing-tree.js';

/**
 * A workload is known by its object's `kind` (and API group), read from the parsed structure, so
 * its GPU request is the same no-capacity request however the object is written: a YAML document,
 * a `List`'s item (nested too), JSON, flow style, quoted keys, or an HCL object of a Terraform
 * manifest (native, `yamlencode`, a heredoc). Each shape is generated from one object; a CPU-only
 * edit and an edit of the workload's own GPU request must end "no change" with every file read,
 * while the GPU pool beside it is still counted, and objects that only look like workloads (a
 * nested `kind` naming another object, a `Server` of another API group, a cluster autoscaler)
 * stay not followed.
 */

type Obj = Record<string, unknown>;

const container = (image: string, cpu: number, gpus: number): Obj => ({
  name: 'main',
  image,
  resources: { limits: { cpu, 'nvidia.com/gpu': gpus } },
});

/** Workloads of several kinds and groups, as objects; `gpus` is their own request. */
const WORKLOADS: Record<string, (image: string, cpu: number, gpus: number) => Obj> = {
  RayCluster: (image, cpu, gpus) => ({
    apiVersion: 'ray.io/v1',
    kind: 'RayCluster',
    metadata: { name: 'rc' },
    spec: {
      enableInTreeAutoscaling: true,
      headGroupSpec: { rayStartParams: { 'num-gpus': '0' }, template: { spec: { containers: [container(image, cpu, 0)] } } },
      workerGroupSpecs: [
        { groupName: 'cpu', maxReplicas: cpu, template: { spec: { containers: [container(image, cpu, 0)] } } },
        {
          groupName: 'gpu',
          maxReplicas: 4,
          resources: { GPU: `${gpus}` },
          rayStartParams: { 'num-gpus': `${gpus}` },
          template: { spec: { containers: [container(image, cpu, gpus)] } },
        },
      ],
    },
  }),
  Deployment: (image, cpu, gpus) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'serve' },
    spec: {
      replicas: 2,
      template: { spec: { nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-L4' }, containers: [container(image, cpu, gpus)] } },
    },
  }),
  PyTorchJob: (image, cpu, gpus) => ({
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name: 'train' },
    spec: { pytorchReplicaSpecs: { Worker: { replicas: 2, template: { spec: { containers: [container(image, cpu, gpus)] } } } } },
  }),
  SubstratusServer: (image, cpu, gpus) => ({
    apiVersion: 'substratus.ai/v1',
    kind: 'Server',
    metadata: { name: 'llama' },
    spec: { image, model: { name: 'llama-2-7b' }, resources: { cpu, gpu: { type: 'nvidia-l4', count: gpus } } },
  }),
  KubeAIModel: (image, cpu, gpus) => ({
    apiVersion: 'kubeai.org/v1',
    kind: 'Model',
    metadata: { name: 'llama' },
    spec: { engine: 'VLLM', image, resourceProfile: `nvidia-gpu-l4:${gpus}`, minReplicas: 0, maxReplicas: cpu },
  }),
  SeldonServer: (image, cpu, gpus) => ({
    apiVersion: 'mlops.seldon.io/v1alpha1',
    kind: 'Server',
    metadata: { name: 'triton' },
    spec: { replicas: cpu, podSpec: { containers: [container(image, cpu, gpus)] } },
  }),
};

const pool = (limit: number): Obj => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'gpu' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g6e.12xlarge'] }],
      },
    },
    limits: { 'nvidia.com/gpu': limit },
  },
});

/** An object as a native HCL object: identifiers bare, other keys quoted, `=` between. */
function hcl(value: unknown, indent = ''): string {
  if (Array.isArray(value)) return `[\n${value.map((v) => `${indent}  ${hcl(v, `${indent}  `)},`).join('\n')}\n${indent}]`;
  if (value !== null && typeof value === 'object') {
    const pairs = Object.entries(value as Obj).map(
      ([k, v]) => `${indent}  ${/^[A-Za-z_][\w-]*$/.test(k) ? k : JSON.stringify(k)} = ${hcl(v, `${indent}  `)}`,
    );
    return `{\n${pairs.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

const heredoc = (text: string) => `<<-YAML\n${text.replace(/^/gm, '    ').trimEnd()}\n  YAML`;
const list = (items: Obj[]): Obj => ({ apiVersion: 'v1', kind: 'List', items });
const quoteKeys = (text: string) => text.replace(/^(\s*(?:- )?)([A-Za-z][\w./-]*):/gm, '$1"$2":');

/** A file holding the pool and the workload, in one shape; the path says how it is read. */
const SHAPES: Record<string, (objects: Obj[]) => [path: string, text: string]> = {
  documents: (o) => ['k8s/all.yaml', o.map((x) => stringify(x)).join('---\n')],
  list: (o) => ['k8s/all.yaml', stringify(list(o))],
  nestedList: (o) => ['k8s/all.yaml', stringify(list([list(o.slice(0, 1)), list(o.slice(1))]))],
  json: (o) => ['k8s/all.json', JSON.stringify(list(o), null, 2)],
  jsonOneLine: (o) => ['k8s/all.json', JSON.stringify(list(o))],
  flow: (o) => ['k8s/all.yaml', o.map((x) => stringify(x, { collectionStyle: 'flow' })).join('---\n')],
  quotedKeys: (o) => ['k8s/all.yaml', o.map((x) => quoteKeys(stringify(x))).join('---\n')],
  hclObject: (o) => [
    'tf/k8s.tf',
    o.map((x, i) => `resource "kubernetes_manifest" "m${i}" {\n  manifest = ${hcl(x, '  ')}\n}\n`).join('\n'),
  ],
  yamlencode: (o) => [
    'tf/k8s.tf',
    o.map((x, i) => `resource "kubectl_manifest" "m${i}" {\n  yaml_body = yamlencode(${hcl(x, '  ')})\n}\n`).join('\n'),
  ],
  heredoc: (o) => [
    'tf/k8s.tf',
    o.map((x, i) => `resource "kubectl_manifest" "m${i}" {\n  yaml_body = ${heredoc(stringify(x))}\n}\n`).join('\n'),
  ],
};

const tree = (shape: string, objects: Obj[]) => {
  const [path, text] = (SHAPES[shape] as (o: Obj[]) => [string, string])(objects);
  return { [path]: text };
};
const notFollowed = (r: Awaited<ReturnType<typeof detectChanges>>) =>
  r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

const arbCase = fc.record({
  kind: fc.constantFrom(...Object.keys(WORKLOADS)),
  shape: fc.constantFrom(...Object.keys(SHAPES)),
  images: fc.tuple(
    fc.constantFrom('rayproject/ray:2.9.0', 'vllm/vllm-openai:v0.6.3'),
    fc.constantFrom('rayproject/ray:2.40.0', 'vllm/vllm-openai:v0.8.1'),
  ),
  cpus: fc.tuple(fc.integer({ min: 1, max: 32 }), fc.integer({ min: 33, max: 64 })),
  gpus: fc.integer({ min: 1, max: 8 }),
  poolFirst: fc.boolean(),
});

describe('a workload known by its parsed kind, whatever the shape', () => {
  it('a CPU-only edit and an edit of its own GPU request are no change, every file read; the pool beside it is counted', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ kind, shape, images, cpus, gpus, poolFirst }) => {
        const write = WORKLOADS[kind] as (image: string, cpu: number, gpus: number) => Obj;
        const side = (image: string, cpu: number, g: number, limit: number) => {
          const objects = [pool(limit), write(image, cpu, g)];
          return tree(shape, poolFirst ? objects : objects.reverse());
        };
        const cpuOnly = await detectChanges(listingPr(side(images[0], cpus[0], gpus, 16), side(images[1], cpus[1], gpus, 16)));
        expect([cpuOnly.changes, notFollowed(cpuOnly)]).toEqual([[], []]);
        const demand = await detectChanges(listingPr(side(images[0], cpus[0], gpus, 16), side(images[0], cpus[0], gpus + 1, 16)));
        expect([demand.changes, notFollowed(demand)]).toEqual([[], []]);
        const capacity = await detectChanges(listingPr(side(images[0], cpus[0], gpus, 16), side(images[0], cpus[0], gpus, 32)));
        expect(capacity.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[16, 32]]);
      }),
      { numRuns: 40 },
    );
  });

  it('what only looks like a workload keeps its GPU names unaccounted, in every shape', () => {
    const lookalikes: Obj[] = [
      // A nested `kind` with no `apiVersion` names another object (an HPA's target), not this one.
      { spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, gpuInstanceType: 'p4d.24xlarge' } },
      // `Server` of another API group is a cloud server.
      { apiVersion: 'server.hcloud.crossplane.io/v1alpha1', kind: 'Server', spec: { forProvider: { serverType: 'p4d.24xlarge' } } },
      // A cluster autoscaler deployed as a workload sizes pools.
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        spec: {
          template: { spec: { containers: [{ name: 'ca', command: ['./cluster-autoscaler', '--nodes=0:8:gpu-p4d.24xlarge-asg'] }] } },
        },
      },
    ];
    for (const [shape, write] of Object.entries(SHAPES)) {
      for (const object of lookalikes) {
        const [path, text] = write([object, { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } }]);
        const left = accountSignals(path, text).signals.filter((s) => s.by === null);
        expect(left.length, `${shape}: ${JSON.stringify(object)}`).toBeGreaterThan(0);
      }
    }
  });
});
