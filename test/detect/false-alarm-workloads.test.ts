import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { listingPr } from './listing-tree.js';

/**
 * CPU-only changes in files that also declare a GPU pool, of the classes that once alarmed: a
 * workload's own GPU request (KubeRay with its in-tree autoscaler, Substratus, KubeAI, Seldon), a
 * helm-unittest suite, a chart's values schema, a CI job's runner labels, a program a ConfigMap carries. Each is generated (which
 * CPU-only edit, where the pool sits, how the GPU is spelt) and must end "no change" with every file
 * read; the pool beside it must still be counted, and real capacity written in the same shapes
 * (a cluster autoscaler in the workload, a lookalike with a key of its own, a script step) must
 * still end not followed.
 */

const POOL = (limit: number, type: string) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["${type}"]
  limits:
    nvidia.com/gpu: ${limit}
`;

/** A CPU-only edit: what differs between the two sides of the workload. */
interface Edit {
  image: string;
  cpu: number;
  label: string;
}

type Workload = (e: Edit, gpus: number) => string;

const WORKLOADS: Record<string, Workload> = {
  rayClusterAutoscaled: (e, g) => `apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: rc
  labels:
    team: ${e.label}
spec:
  enableInTreeAutoscaling: true
  autoscalerOptions:
    upscalingMode: Default
  headGroupSpec:
    rayStartParams:
      num-gpus: "0"
    template:
      spec:
        containers:
          - name: head
            image: ${e.image}
  workerGroupSpecs:
    - groupName: gpu
      minReplicas: 0
      maxReplicas: 8
      rayStartParams:
        num-gpus: "${g}"
      template:
        spec:
          containers:
            - name: worker
              image: ${e.image}
              resources:
                limits:
                  cpu: ${e.cpu}
                  nvidia.com/gpu: ${g}
`,
  rayService: (e, g) => `apiVersion: ray.io/v1
kind: RayService
metadata:
  name: llm
  labels:
    team: ${e.label}
spec:
  serveConfigV2: |
    applications:
      - name: llm
        deployments:
          - name: VLLMDeployment
            autoscaling_config:
              min_replicas: 1
              max_replicas: ${e.cpu}
            ray_actor_options:
              num_cpus: ${e.cpu}
              num_gpus: ${g}
  rayClusterConfig:
    enableInTreeAutoscaling: true
    headGroupSpec:
      rayStartParams: {}
      template:
        spec:
          containers:
            - name: head
              image: ${e.image}
    workerGroupSpecs:
      - groupName: gpu-group
        maxReplicas: 4
        rayStartParams: {}
        template:
          spec:
            containers:
              - name: worker
                image: ${e.image}
                resources:
                  limits:
                    nvidia.com/gpu: ${g}
`,
  substratusServer: (e, g) => `apiVersion: substratus.ai/v1
kind: Server
metadata:
  name: llama
  labels:
    team: ${e.label}
spec:
  image: ${e.image}
  model:
    name: llama-2-7b
  resources:
    cpu: ${e.cpu}
    gpu:
      type: nvidia-l4
      count: ${g}
`,
  kubeaiModel: (e, g) => `apiVersion: kubeai.org/v1
kind: Model
metadata:
  name: llama
  labels:
    team: ${e.label}
spec:
  features: [TextGeneration]
  url: hf://meta-llama/Llama-3.1-8B-Instruct
  engine: VLLM
  image: ${e.image}
  resourceProfile: nvidia-gpu-l4:${g}
  minReplicas: 0
  maxReplicas: ${e.cpu}
`,
  seldonServer: (e, g) => `apiVersion: mlops.seldon.io/v1alpha1
kind: Server
metadata:
  name: triton
  labels:
    team: ${e.label}
spec:
  serverConfig: triton
  replicas: ${e.cpu}
  podSpec:
    containers:
      - name: triton
        image: ${e.image}
        resources:
          limits:
            nvidia.com/gpu: ${g}
`,
};

const arbEdit = fc.record({
  image: fc.constantFrom('rayproject/ray:2.9.0', 'rayproject/ray:2.40.0-py310-gpu', 'vllm/vllm-openai:v0.6.3'),
  cpu: fc.integer({ min: 1, max: 64 }),
  label: fc.constantFrom('ml', 'research', 'serving'),
});
const arbCase = fc.record({
  workload: fc.constantFrom(...Object.keys(WORKLOADS)),
  edits: fc.tuple(arbEdit, arbEdit).filter(([a, b]) => a.image !== b.image || a.cpu !== b.cpu || a.label !== b.label),
  gpus: fc.integer({ min: 1, max: 8 }),
  poolFirst: fc.boolean(),
  type: fc.constantFrom('g5.12xlarge', 'p4d.24xlarge', 'g6e.48xlarge'),
});

const file = (parts: string[], poolFirst: boolean) => (poolFirst ? parts : [...parts].reverse()).join('---\n');
const states = (r: Awaited<ReturnType<typeof detectChanges>>) => r.coverage.map((c) => [c.file, c.state]);

describe("a workload's GPU request beside a GPU pool", () => {
  it('a CPU-only edit of the workload is no change, every file read', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ workload, edits, gpus, poolFirst, type }) => {
        const write = WORKLOADS[workload] as Workload;
        const side = (e: Edit) => ({ 'k8s/serving.yaml': file([POOL(16, type), write(e, gpus)], poolFirst) });
        const r = await detectChanges(listingPr(side(edits[0]), side(edits[1])));
        expect(r.changes).toEqual([]);
        expect(states(r)).toEqual([['k8s/serving.yaml', 'read']]);
      }),
      { numRuns: 40 },
    );
  });

  it("the workload's own GPU request changing is no capacity; the pool beside it changing is counted", async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ workload, edits, gpus, poolFirst, type }) => {
        const write = WORKLOADS[workload] as Workload;
        const side = (limit: number, g: number) => ({ 'k8s/serving.yaml': file([POOL(limit, type), write(edits[0], g)], poolFirst) });
        const demand = await detectChanges(listingPr(side(16, gpus), side(16, gpus + 1)));
        expect(demand.changes).toEqual([]);
        expect(states(demand)).toEqual([['k8s/serving.yaml', 'read']]);
        const pool = await detectChanges(listingPr(side(16, gpus), side(32, gpus)));
        expect(pool.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['gpu', 16, 32]]);
      }),
      { numRuns: 20 },
    );
  });

  it('a cluster autoscaler run inside a workload sizes pools: its GPU names stay not followed', async () => {
    for (const write of Object.values(WORKLOADS)) {
      const sidecar = (max: number) =>
        write({ image: 'ray:1', cpu: 1, label: 'ml' }, 1) +
        `sidecar:\n  command: ["./cluster-autoscaler", "--nodes=0:${max}:gpu-p4d.24xlarge-asg"]\n`;
      const r = await detectChanges(listingPr({ 'k8s/w.yaml': sidecar(4) }, { 'k8s/w.yaml': sidecar(16) }));
      expect(states(r)).toEqual([['k8s/w.yaml', 'not-followed']]);
    }
  });

  it('a kind of the same name in another API group (a cloud server) is not a workload: not followed', async () => {
    const server = (type: string) =>
      `apiVersion: server.hcloud.crossplane.io/v1alpha1\nkind: Server\nmetadata:\n  name: gpu\nspec:\n  forProvider:\n    serverType: ${type}\n`;
    const r = await detectChanges(
      listingPr({ 'infra/server.yaml': server('g5.12xlarge') }, { 'infra/server.yaml': server('p4d.24xlarge') }),
    );
    expect(states(r)).toEqual([['infra/server.yaml', 'not-followed']]);
  });
});

const CHART = { 'charts/gpu/Chart.yaml': 'apiVersion: v2\nname: gpu\nversion: 0.1.0\n' };

const SUITE = (limit: number, note: string) => `suite: ${note}
templates:
  - templates/nodepool.yaml
tests:
  - it: sets the GPU limit
    set:
      gpu.limit: ${limit}
      gpu.instanceType: p4d.24xlarge
    asserts:
      - equal:
          path: spec.limits["nvidia.com/gpu"]
          value: ${limit}
  - it: uses the GPU instance type
    asserts:
      - contains:
          path: spec.template.spec.requirements[0].values
          content: p4d.24xlarge
`;

const SCHEMA = (max: number, note: string) =>
  JSON.stringify(
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        gpu: {
          type: 'object',
          description: note,
          properties: {
            limit: { type: 'integer', minimum: 0, maximum: max, default: 16 },
            instanceType: { type: 'string', enum: ['g5.12xlarge', 'p4d.24xlarge'] },
            accelerator: { type: 'string', default: 'nvidia.com/gpu' },
          },
        },
      },
    },
    null,
    2,
  );

describe('files no tool applies, beside a chart that declares a GPU pool', () => {
  const arbNotes = fc
    .tuple(fc.constantFrom('gpu pool', 'limits', 'nodepool tests'), fc.constantFrom('a', 'b', 'c'))
    .map(([a, b]) => [a, `${a} ${b}`]);

  it('a helm-unittest suite and a values schema, any edit (their GPU numbers too), are no change and read', async () => {
    await fc.assert(
      fc.asyncProperty(arbNotes, fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 }), async ([a = '', b = ''], x, y) => {
        const side = (n: number, note: string) => ({
          ...CHART,
          'charts/gpu/templates/nodepool.yaml': POOL(16, 'p4d.24xlarge'),
          'charts/gpu/tests/nodepool_test.yaml': SUITE(n, note),
          'charts/gpu/values.schema.json': SCHEMA(n * 8, note),
        });
        const r = await detectChanges(listingPr(side(x, a), side(y, b)));
        expect(r.changes).toEqual([]);
        expect(r.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });

  it('a lookalike that also sets a key of its own, has a kind, or asserts nothing is judged as any file: not followed', async () => {
    const lookalikes: [string, (n: number) => string][] = [
      ['charts/gpu/tests/nodepool_test.yaml', (n) => `${SUITE(n, 's')}gpu:\n  limit: ${n}\n`],
      ['charts/gpu/tests/nodepool_test.yaml', (n) => `kind: Config\n${SUITE(n, 's')}`],
      ['charts/gpu/tests/nodepool_test.yaml', (n) => SUITE(n, 's').replace(/ {4}asserts:\n[\s\S]*?(?= {2}- it|$)/g, '')],
      ['charts/gpu/values.schema.json', (n) => JSON.stringify({ kind: 'NodePool', properties: {}, limits: { 'nvidia.com/gpu': n } })],
      ['charts/gpu/values.schema.json', (n) => `{"properties": {"gpu": ${n}}`],
    ];
    for (const [path, write] of lookalikes) {
      const r = await detectChanges(listingPr({ ...CHART, [path]: write(4) }, { ...CHART, [path]: write(8) }));
      expect([path, r.coverage.find((c) => c.file === path)?.state]).toEqual([path, 'not-followed']);
    }
  });
});

describe("a CI job's runner labels", () => {
  const WORKFLOW = (runner: string, step: string) =>
    `name: gpu-tests\non: [push]\njobs:\n  test:\n    runs-on: [self-hosted, linux, ${runner}]\n    steps:\n      - uses: actions/checkout@v4\n      - run: ${step}\n`;

  it('say where the job runs: a change of runner or of a step naming no GPU is no change', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('g5.12xlarge', 'gpu-a100', 'nvidia-l4', 'p4d.24xlarge'),
        fc.constantFrom('g6.12xlarge', 'gpu-h100', 'nvidia-h100-80gb'),
        fc.constantFrom('make test', 'pytest -x'),
        async (from, to, step) => {
          const path = '.github/workflows/gpu.yml';
          const r = await detectChanges(listingPr({ [path]: WORKFLOW(from, step) }, { [path]: WORKFLOW(to, step) }));
          expect(r.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('a step that names a GPU type may create it: not followed', async () => {
    const path = '.github/workflows/gpu.yml';
    const step = (n: number) => `eksctl create nodegroup --node-type p4d.24xlarge --nodes ${n}`;
    const r = await detectChanges(listingPr({ [path]: WORKFLOW('linux', step(1)) }, { [path]: WORKFLOW('linux', step(4)) }));
    expect(states(r)).toEqual([[path, 'not-followed']]);
  });
});

describe('a program carried in a ConfigMap, beside a GPU pool', () => {
  const CONFIG_MAP = (key: string, body: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: code\ndata:\n  ${key}: |\n${body
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}\n`;
  const PROGRAMS: Record<string, (gpus: number, note: string) => string> = {
    'task.py': (g, n) =>
      `import ray\n# ${n}\n@ray.remote(num_gpus=${g}, label_selector={"ray.io/accelerator-type": "A100"})\ndef f():\n    pass`,
    'run.sh': (g, n) => `#!/bin/sh\n# ${n}\nGPU_COUNT=${g}\npython train.py --num_gpus=$GPU_COUNT`,
    'main.js': (g, n) => `// ${n}\nconst opts = { gpuCount: ${g} };\nrun(opts);`,
  };
  const side = (key: string, g: number, n: string) => ({
    'k8s/app.yaml': [POOL(16, 'p4d.24xlarge'), CONFIG_MAP(key, (PROGRAMS[key] as (g: number, n: string) => string)(g, n))].join('---\n'),
  });

  it('is a program: its GPU-named keys size nothing, whatever it asks for', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(PROGRAMS)),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        async (key, a, b) => {
          const r = await detectChanges(listingPr(side(key, a, 'v1'), side(key, b, 'v2')));
          expect(r.changes).toEqual([]);
          expect(states(r)).toEqual([['k8s/app.yaml', 'read']]);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('the same lines under a key of a config format, in a program that imports an IaC SDK, or naming a GPU type, stay not followed', async () => {
    const py = (PROGRAMS['task.py'] as (g: number, n: string) => string)(1, 'x');
    const shapes: [string, string][] = [
      ['settings.yaml', 'gpu_count: 4\nnum_gpus: 4'],
      ['app.properties', 'gpu_count=4'],
      ['stack.py', `import pulumi_aws as aws\n${py}\ngpu_count = 4`],
      ['task.py', `${py}\ninstance_type = "p4d.24xlarge"`],
    ];
    for (const [key, body] of shapes) {
      const tree = (b: string) => ({ 'k8s/app.yaml': [POOL(16, 'g5.12xlarge'), CONFIG_MAP(key, b)].join('---\n') });
      const r = await detectChanges(listingPr(tree(`# v1\n${body}`), tree(`# v2\n${body.replace(/4/g, '8')}`)));
      expect([key, states(r)]).toEqual([key, [['k8s/app.yaml', 'not-followed']]]);
    }
  });
});
