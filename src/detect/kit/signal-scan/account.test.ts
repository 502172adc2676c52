import { describe, expect, it } from 'vitest';
import { accountSignals } from './account.js';

const FLAVOR = `apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata:
  name: gpu
spec:
  nodeLabels:
    nvidia.com/gpu.present: "true"
  tolerations:
  - key: nvidia.com/gpu
    operator: Exists
    effect: NoSchedule
`;

describe('accountSignals', () => {
  it('reads a file with CRLF line ends as with LF ones: the same names, lines and contexts', () => {
    const lf = accountSignals('flavor.yaml', FLAVOR).signals.map((s) => [s.token, s.line, s.by]);
    expect(lf).toEqual([
      ['nvidia.com/gpu.present', 7, 'label'],
      ['nvidia.com/gpu', 9, 'scheduling'],
    ]);
    expect(accountSignals('flavor.yaml', FLAVOR.replace(/\n/g, '\r\n')).signals.map((s) => [s.token, s.line, s.by])).toEqual(lf);
  });

  it('reads a file with no extension holding objects as YAML: a label is a label', () => {
    expect(accountSignals('kueue/gpu-flavor', FLAVOR).signals.map((s) => s.by)).toEqual(['label', 'scheduling']);
  });
});

/** The contexts of the GPU-named keys of a Terraform file, in order. */
const keyContexts = (text: string) =>
  accountSignals('main.tf', text)
    .signals.filter((s) => s.kind === 'gpu-key')
    .map((s) => [s.token, s.by]);

describe('names that say GPU but size nothing', () => {
  const GPU_NAMES = ['gpu', 'eks_gpu_node', 'attach-cloudwatch-to-gpu-ng', 'GpuNodes', 'accelerator_pool'];
  const DATA_TYPES = [
    'aws_ami',
    'aws_iam_policy',
    'google_container_engine_versions',
    'aws_ec2_instance_types',
    'azurerm_kubernetes_cluster',
  ];
  const GRANTS = [
    'aws_iam_role',
    'aws_iam_role_policy_attachment',
    'aws_iam_policy',
    'google_project_iam_member',
    'google_service_account_iam_binding',
    'azurerm_role_assignment',
    'kubernetes_cluster_role_binding',
  ];
  const CREATES = ['aws_autoscaling_group', 'aws_launch_template', 'google_container_node_pool', 'aws_eks_node_group', 'acme_gpu_fleet'];

  it('the name of a data source or of a grant is a name, however it is spaced', () => {
    for (const name of GPU_NAMES)
      for (const [type, kind] of [...DATA_TYPES.map((t) => [t, 'data']), ...GRANTS.map((t) => [t, 'resource'])] as const)
        for (const gap of [' ', '  ', '\t']) {
          const text = `${kind}${gap}"${type}"${gap}"${name}" {\n  name = "x"\n}\n`;
          expect(keyContexts(text), text).toEqual([[name, 'label']]);
        }
  });

  it('a resource that may create machines, named for GPUs, stays unaccounted: its name may be all that says GPU', () => {
    for (const name of GPU_NAMES)
      for (const type of CREATES) {
        const text = `resource "${type}" "${name}" {\n  max_size = 10\n}\n`;
        const found = keyContexts(text);
        expect(found, text).toContainEqual([name, null]);
        expect(
          found.every(([, by]) => by === null),
          text,
        ).toBe(true);
      }
  });

  it('what the body of a data source or grant sets is still judged where it is written', () => {
    const text = `data "aws_ami" "gpu" {\n  gpu_count = 8\n}\nresource "aws_iam_role" "gpu" {\n  accelerator_type = "x"\n}\n`;
    expect(keyContexts(text)).toEqual([
      ['gpu', 'label'],
      ['gpu_count', null],
      ['gpu', 'label'],
      ['accelerator_type', null],
    ]);
  });

  it('a GKE cluster named for GPUs that removes its default pool and declares none inline: its label is a name', () => {
    const cluster = (name: string, body: string) =>
      `resource "google_container_cluster" "${name}" {\n  name     = "x"\n  location = "us-central1"\n${body}}\n`;
    const removes = '  remove_default_node_pool = true\n  initial_node_count       = 1\n';
    for (const name of ['gpu-uc1', 'gpu_cluster', 'accelerator-pool']) {
      expect(keyContexts(cluster(name, removes)), name).toEqual([[name, 'label']]);
      // Its default pool kept, or a pool inline: it may make GPU nodes no reader counts.
      expect(keyContexts(cluster(name, '  initial_node_count = 1\n')), name).toEqual([[name, null]]);
      expect(keyContexts(cluster(name, `${removes}  node_pool {\n    name = "p"\n  }\n`)), name).toEqual([[name, null]]);
      expect(keyContexts(cluster(name, `${removes}  dynamic "node_pool" {\n    for_each = []\n  }\n`)), name).toEqual([[name, null]]);
      expect(keyContexts(cluster(name, '  remove_default_node_pool = false\n')), name).toEqual([[name, null]]);
    }
  });

  it('a key naming a machine image or a request is no GPU name, as a word of the key only', () => {
    const none = [
      'gpu_ami_id',
      'gpu_ami_name_pattern',
      'ami_gpu',
      'gpuAmiId',
      'requestGPU',
      'requestsGpu',
      'gpu_requests',
      'gpu-request',
      'gpuRequest',
    ];
    const kept = ['dynamic_gpu', 'gpu_amigos', 'gpuAmigo', 'requested_gpus', 'gpu_requestor', 'max_gpu', 'gpuCount'];
    for (const key of [...none, ...kept]) {
      const found = keyContexts(`locals {\n  ${key} = 4\n}\n`).map(([token]) => token);
      expect(found, key).toEqual(none.includes(key) ? [] : [key]);
      const yaml = accountSignals('values.yaml', `${key}: 4\n`).signals.map((s) => s.token);
      expect(yaml, key).toEqual(none.includes(key) ? [] : [key]);
    }
  });
});

describe('accountSignals on YAML by its parsed structure', () => {
  const at = (path: string, text: string) => accountSignals(path, text).signals.map((s) => [s.token, s.line, s.by]);

  it('a GPU resource spelled as a JSON Pointer (a JSON patch path) is a GPU name, in any patch form', () => {
    for (const resource of ['nvidia.com~1gpu', 'amd.com~1gpu', 'gpu.intel.com~1i915', 'nvidia.com~1mig-1g.10gb']) {
      const argo = `kind: Application\nspec:\n  source:\n    kustomize:\n      patches:\n        - patch: |-\n            - op: replace\n              path: /spec/limits/${resource}\n              value: 40\n`;
      expect(at('app.yaml', argo).map(([token]) => token)).toEqual([resource]);
      const json = `[{"op": "replace", "path": "/spec/limits/${resource}", "value": 40}]\n`;
      expect(at('patch.json', json).map(([token]) => token)).toEqual([resource]);
    }
    // `~0` escapes a tilde: no GPU resource is spelled with one, and a path without `~1` is no pointer.
    expect(at('app.yaml', 'path: /spec/limits/cpu~1\n')).toEqual([]);
  });

  it('reads a flow mapping as the block one: a label, a toleration, a request', () => {
    const flow = `{kind: ResourceFlavor, spec: {nodeLabels: {nvidia.com/gpu.present: "true"},\n  tolerations: [{key: nvidia.com/gpu, operator: Exists}]}}\n---\n{kind: DaemonSet, spec: {containers: [{name: a, resources: {limits: {nvidia.com/gpu: 1}}}]}}\n`;
    expect(at('flavor.yaml', flow)).toEqual([
      ['nvidia.com/gpu.present', 1, 'label'],
      ['nvidia.com/gpu', 2, 'scheduling'],
      ['nvidia.com/gpu', 4, 'request'],
    ]);
  });

  it('a key its mapping sets again is overridden, at any depth and in flow style; the last one is a signal', () => {
    for (const text of [
      'kind: NodePool\nspec:\n  limits:\n    nvidia.com/gpu: 0\n    cpu: 4\n    nvidia.com/gpu: 8\n',
      'kind: NodePool\nspec:\n  limits: {nvidia.com/gpu: 0,\n    cpu: 4,\n    "nvidia.com/gpu": 8}\n',
      'kind: NodePool\nspec:\n  limits:\n    nvidia.com/gpu: 8\n  cpu: 4\nspec:\n  limits:\n    nvidia.com/gpu: 8\n',
    ]) {
      const signals = at('pool.yaml', text);
      expect(
        signals.map(([, , by]) => by),
        text,
      ).toEqual(['overridden', null]);
    }
  });

  it('what does not parse, or is a template, is read by indentation as before', () => {
    const template =
      'kind: NodePool\nspec:\n  limits:\n    nvidia.com/gpu: {{ .Values.gpus }}\n  labels:\n    nvidia.com/gpu.present: "true"\n';
    expect(at('templates/pool.yaml', template)).toEqual([
      ['nvidia.com/gpu', 4, null],
      ['nvidia.com/gpu.present', 6, 'label'],
    ]);
    const broken = 'kind: NodePool\nspec:\n  limits:\n    nvidia.com/gpu: 8\n   bad: [\n  labels:\n    nvidia.com/gpu.present: "true"\n';
    expect(at('pool.yaml', broken).map(([, , by]) => by)).toEqual([null, 'label']);
  });

  it('an object ends at its last entry, not at comments indented under its last list after it', () => {
    // A commented-out item closing a list is an item of comments alone to the YAML parser.
    for (const tail of ['  # - type: cpu\n  #   value: "1"\n', '    # disabled\n', '# the end\n', '  #\n']) {
      const text = `kind: ScaledObject\nspec:\n  maxReplicaCount: 3\n  triggers:\n  - type: prometheus\n    metadata:\n      query: |\n        sum(kube_pod_resource_request{resource="nvidia.com/gpu"})\n      threshold: '1'\n${tail}`;
      // The reader of the object read it (its line 3): the query inside it is accounted for.
      expect(
        accountSignals('scaled.yaml', text, { spans: [], anchors: [3] }).signals.map((s) => [s.line, s.by]),
        tail,
      ).toEqual([[8, 'parser']]);
    }
  });

  it('a heredoc of YAML in HCL is read by its parsed structure too', () => {
    const hcl =
      'resource "kubectl_manifest" "x" {\n  yaml_body = <<EOT\nkind: DaemonSet\nspec: {containers: [{resources: {limits: {nvidia.com/gpu: 1}}}]}\nEOT\n}\n';
    expect(at('main.tf', hcl)).toEqual([['nvidia.com/gpu', 4, 'request']]);
  });

  // A Markdown list in YAML (or in an HCL heredoc read as YAML): the parser rejects a plain key that
  // opens with a backtick. The scan reads such text by its indentation, and still finds the GPU name.
  it.each([
    ['notes.yaml', 'items:\n  - `machine_type`: a3-highgpu-8g\n'],
    ['variables.tf', 'variable "g" {\n  description = <<-EOT\n    groups:\n      - `machine_type`: a3-highgpu-8g\n    EOT\n}\n'],
    ['values.yaml', 'pool:\n  `size`: 2\n  type: p5.48xlarge\n'],
    ['values.yaml', 'pool: {`size`: 2, type: p5.48xlarge}\n'],
  ])('reads %s with a key YAML rejects without throwing, naming the GPU', (path, text) => {
    expect(accountSignals(path, text).signals.map((s) => s.token)).toEqual([expect.stringMatching(/a3-highgpu-8g|p5\.48xlarge/)]);
  });
});

describe('an EC2 GPU family whose size the code puts in', () => {
  const SHAPES: readonly [string, string, string][] = [
    ['lib/g5-stack.ts', 'instanceType: new InstanceType(`g5.${this.props.instanceSize}`),', 'g5.'],
    ['stack.py', 'instance_types=[f"p4d.{size}"],', 'p4d.'],
    ['index.ts', 'instanceTypes: ["g6e." + size],', 'g6e.'],
    ['main.tf', 'instance_types = ["g5.${var.gpu_size}"]', 'g5.'],
    ['main.tf', 'instance_types = [format("p5.%s", var.gpu_size)]', 'p5.'],
    ['deploy.rb', 'instance_type: "g4dn.#{size}"', 'g4dn.'],
  ];
  for (const [file, line, token] of SHAPES)
    it(`names ${token} in ${line}`, () => {
      const text = `import * as ec2 from 'aws-cdk-lib/aws-ec2';\n${line}\n`;
      expect(accountSignals(file, text).signals.map((s) => s.token)).toContain(token);
    });

  it('leaves versions and other interpolations alone', () => {
    for (const line of ['version: `v1.${minor}`,', 'const e = 3.${x};', 'name: "c5.${size}"', 'tag = "m5." + size'])
      expect(accountSignals('x.ts', `${line}\n`).signals, line).toEqual([]);
  });
});
