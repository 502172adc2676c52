import fc from 'fast-check';
import { stringify } from 'yaml';
import { HOSTILE_QUANTITIES } from './inputs.js';

/**
 * Structured hostile text: Kueue, Karpenter, eksctl and Terraform documents, comments, catalogs
 * and policies shaped as their readers expect, whose fields hold anything. `inputs.ts` holds the
 * corpus mutations and the fixed attacks.
 */

const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'nvidia.com/gpu', 'nominalQuota', 'count', 'limits', 'name', 'kind'),
  fc.string({ maxLength: 12 }),
);

const hostileLeaf = fc.oneof(
  fc.constantFrom(Number.NaN, -1, -0, Number.MAX_VALUE, Number.POSITIVE_INFINITY, 1e21, 0.5, 2 ** 53 + 1),
  fc.double(),
  fc.integer(),
  fc.string(),
  fc.constantFrom('NaN', '-1', '1e309', '12Gi', '${var.x}', '{{ .Values.x }}'),
  fc.boolean(),
  fc.constant(null),
);

/** A JSON-ish tree with hostile keys and values. */
const hostileTree = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileLeaf,
    fc.array(tie('tree'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('tree'), { maxKeys: 5 }),
  ),
})).tree;

/** Kueue, Karpenter, eksctl, … shaped documents whose GPU fields hold anything. */
export function structuredYaml(): fc.Arbitrary<string> {
  const quantity = fc.oneof(fc.constantFrom(...HOSTILE_QUANTITIES), fc.integer().map(String), fc.double().map(String));
  const docs = [
    (q: string, t: string) =>
      `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: ${t}\nspec:\n  cohort: ${t}\n  resourceGroups:\n    - coveredResources: ["nvidia.com/gpu"]\n      flavors:\n        - name: ${t}\n          resources:\n            - name: nvidia.com/gpu\n              nominalQuota: ${q}\n              borrowingLimit: ${q}\n`,
    (q: string, t: string) =>
      `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: ${t}\nspec:\n  limits:\n    nvidia.com/gpu: ${q}\n  template:\n    spec:\n      requirements:\n        - key: node.kubernetes.io/instance-type\n          operator: In\n          values: ["p4d.24xlarge", ${t}]\n`,
    (q: string, t: string) =>
      `apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata:\n  name: ${t}\nmanagedNodeGroups:\n  - name: ${t}\n    instanceType: p5.48xlarge\n    minSize: ${q}\n    maxSize: ${q}\n    desiredCapacity: ${q}\n`,
    (q: string, t: string) =>
      `apiVersion: cluster.x-k8s.io/v1beta1\nkind: MachineDeployment\nmetadata:\n  name: ${t}\n  annotations:\n    cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size: "${q}"\nspec:\n  replicas: ${q}\n`,
    (q: string, t: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${t}\ndata:\n  any: |-\n    version: v1\n    sharing:\n      timeSlicing:\n        resources:\n          - name: nvidia.com/gpu\n            replicas: ${q}\n`,
    (q: string, t: string) =>
      `apiVersion: kaito.sh/v1beta1\nkind: Workspace\nmetadata:\n  name: ${t}\nresource:\n  count: ${q}\n  instanceType: Standard_NC48ads_A100_v4\n`,
  ];
  const templated = fc
    .record({
      doc: fc.constantFrom(...docs),
      q: quantity,
      t: fc.oneof(
        fc.string({ maxLength: 10 }).map((s) => JSON.stringify(s)),
        fc.constantFrom('a', '__proto__', '*a', '&a x', '{}'),
      ),
    })
    .map(({ doc, q, t }) => doc(q, t));
  const treeDoc = hostileTree.map((tree) => {
    try {
      return stringify(tree);
    } catch {
      return String(tree);
    }
  });
  const treeInObject = fc
    .record({ kind: fc.constantFrom('ClusterQueue', 'NodePool', 'ClusterConfig', 'Workspace'), spec: hostileTree })
    .map((v) => stringify(v));
  return fc.oneof(templated, treeDoc, treeInObject);
}

/** Terraform node pools whose counts and types hold anything, sometimes broken. */
export function structuredHcl(): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.constantFrom(
      '-1',
      '1e309',
      'NaN',
      'var.n',
      'local.x',
      '"8"',
      'null',
      '[]',
      '{}',
      '${',
      'each.value',
      'count.index',
      '9999999999999999999999',
    ),
    fc.integer().map(String),
    fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  );
  const blocks = [
    (v: string, w: string) =>
      `resource "google_container_node_pool" "p" {\n  node_count = ${v}\n  autoscaling { max_node_count = ${w} }\n  node_config {\n    machine_type = "a2-highgpu-1g"\n    guest_accelerator {\n      type  = "nvidia-tesla-a100"\n      count = ${w}\n    }\n  }\n}\n`,
    (v: string, w: string) =>
      `resource "aws_eks_node_group" "g" {\n  instance_types = ["p4d.24xlarge"]\n  scaling_config {\n    desired_size = ${v}\n    max_size     = ${w}\n    min_size     = 0\n  }\n}\n`,
    (v: string, w: string) =>
      `resource "azurerm_kubernetes_cluster_node_pool" "gpu" {\n  vm_size    = "Standard_NC24ads_A100_v4"\n  node_count = ${v}\n  max_count  = ${w}\n}\n`,
    (v: string, w: string) =>
      `module "eks" {\n  source = "terraform-aws-modules/eks/aws"\n  eks_managed_node_groups = {\n    gpu = {\n      instance_types = ["g5.12xlarge"]\n      max_size = ${v}\n      desired_size = ${w}\n    }\n  }\n}\nvariable "n" { default = ${w} }\nlocals { x = ${v} }\n`,
  ];
  return fc
    .record({ block: fc.constantFrom(...blocks), v: value, w: value, cut: fc.option(fc.nat(), { nil: undefined }) })
    .map(({ block, v, w, cut }) => {
      const text = block(v, w);
      return cut === undefined ? text : text.slice(0, cut % (text.length + 1));
    });
}

/** Comments as people (and attackers) write them. */
export function commentBodies(): fc.Arbitrary<string> {
  const head = fc.constantFrom(
    '/gpu-justify',
    '/GPU-JUSTIFY',
    ' /gpu-justify',
    '    /gpu-justify',
    '\t/gpu-justify',
    '> /gpu-justify',
    '\uFEFF/gpu-justify',
    '\u200B/gpu-justify',
    '/gpu-justifyx',
    '',
  );
  const word = fc.constantFrom(
    '',
    ' explain',
    ' help',
    ' override',
    ' override ',
    ' override because',
    ' rerun',
    ' explain now',
    ' \u0000',
    ' override \u0085\u2028x',
  );
  return fc.oneof(
    fc.record({ head, word, rest: fc.string({ unit: 'binary', maxLength: 600 }) }).map(({ head, word, rest }) => `${head}${word}${rest}`),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'binary', minLength: 2_000, maxLength: 20_000 }).map((s) => `/gpu-justify override ${s}`),
  );
}

/** Catalog files: corpus-like workloads with hostile values. */
export function catalogTexts(): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.constantFrom(...HOSTILE_QUANTITIES),
    fc.constantFrom('"25:00"', '"00:00"', '"-1h"', '2h', '0m', '1e9h', '"23:59"', 'P1D'),
  );
  const workload = fc
    .record({
      name: fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'job', 'job'),
        fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
      ),
      type: fc.constantFrom('batch', 'training', 'inference', 'x', '__proto__'),
      a: value,
      b: value,
      c: value,
      d: value,
    })
    .map(
      ({ name, type, a, b, c, d }) =>
        `  - name: ${name}\n    type: ${type}\n    queue: research\n    gpusPerJob: ${a}\n    gpusPerReplica: ${a}\n    replicas: ${b}\n    runtime: ${b}\n    jobsPerDay: ${c}\n    window: {earliestStart: ${d}, deadline: ${c}}\n    interruptible: ${d}\n    selector: {__proto__: ${a}, app: x}\n`,
    );
  return fc.oneof(
    fc.array(workload, { maxLength: 5 }).map((items) => `workloads:\n${items.join('')}`),
    hostileTree.map((t) => stringify({ workloads: t })),
    structuredYaml(),
  );
}

/** Policy files: every field with hostile values, URLs where names belong. */
export function policyTexts(): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.constantFrom(...HOSTILE_QUANTITIES),
    fc.constantFrom(
      'http://169.254.169.254/latest/meta-data',
      'https://evil.example/x',
      'evil.example:9090',
      '//evil',
      'default',
      '__proto__',
      'file:///etc/passwd',
      'user:pw@host',
    ),
  );
  const policy = fc
    .record({
      mode: value,
      window: value,
      headroom: value,
      telemetry: value,
      ext: value,
      price: value,
      key: fc.constantFrom('H100', '__proto__', 'constructor', 'a b'),
    })
    .map(
      ({ mode, window, headroom, telemetry, ext, price, key }) =>
        `_extends: ${ext}\nmode: ${mode}\nwindow: ${window}\nheadroom: ${headroom}\nidleBelow: ${headroom}\ntelemetry: ${telemetry}\ncatalog: ${ext}\nprices:\n  ${key}: ${price}\noverrides:\n  minPermission: ${mode}\n  teams: [${telemetry}]\n  __proto__: {allowAuthor: true}\n`,
    );
  return fc.oneof(
    policy,
    hostileTree.map((t) => stringify(t)),
  );
}
