import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { stringify } from 'yaml';

/**
 * Hostile text for the parsers and loaders: real files from the shared corpus mutated at random,
 * structured documents with absurd values, and the classic attacks (alias bombs, deep nesting,
 * `__proto__` keys). Everything is a plain string, so a worker can regenerate it from a seed.
 */

export interface Seed {
  /** Corpus-relative path, e.g. `kueue/odh-workshop-team1-cq.yaml`. */
  path: string;
  text: string;
}

/** The shared corpus sits beside the clone, as the detect tests expect it. */
const CORPUS_ROOT = fileURLToPath(new URL('../../../test/corpus', import.meta.url));

export function corpusSeeds(root = CORPUS_ROOT): Seed[] {
  const out: Seed[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      // The licence texts of the corpus's sources are not corpus files.
      if (entry.name === 'LICENSES') continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== 'SOURCES.md') out.push({ path: path.relative(root, full), text: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Values a quantity field should never be trusted to hold. */
const HOSTILE_QUANTITIES = [
  'NaN',
  '.nan',
  '.NaN',
  '-1',
  '-0',
  '-8',
  '1e309',
  '-1e309',
  '.inf',
  '-.inf',
  '1e-400',
  '0.5',
  '1.5',
  '0',
  '9999999999999999999999999',
  '9007199254740993',
  '0x7fffffff',
  '0o777',
  '1_000',
  '"12"',
  '12Gi',
  '8k',
  '1E3',
  '~',
  'null',
  '[]',
  '{}',
  '[1, 2]',
  '!!binary aGVsbG8=',
  '"${var.gpus}"',
  '"{{ .Values.gpus }}"',
  '*anchor',
  '&a 4',
  'true',
  '"-3"',
  '"NaN"',
  '""',
  '1e21',
  '4.000000000000001',
  '"__proto__"',
];

const PROTO_LINES = [
  '__proto__: {polluted: true}',
  '__proto__:\n  polluted: true',
  'constructor: {prototype: {polluted: true}}',
  '"__proto__": {"polluted": true}',
  'prototype: {polluted: true}',
  '<<: {__proto__: {polluted: true}}',
];

/** A document expanding to about 10^9 nodes if aliases were followed naively. */
function billionLaughs(depth = 9): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= depth; i++) {
    const refs = Array.from({ length: 10 }, () => `*a${i - 1}`).join(',');
    lines.push(`a${i}: &a${i} [${refs}]`);
  }
  return `kind: ClusterQueue\n${lines.join('\n')}\nspec:\n  resourceGroups: *a${depth}\n`;
}

function deepYaml(depth: number, flow: boolean): string {
  if (flow) return `kind: ClusterQueue\nspec: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
  let text = 'kind: ClusterQueue\nspec:\n';
  for (let i = 1; i <= depth; i++) text += `${' '.repeat(i)}k${i}:\n`;
  return text;
}

function deepHcl(depth: number): string {
  return `resource "google_container_node_pool" "p" {\n${'node_config {\n'.repeat(depth)}${'}\n'.repeat(depth)}}\n`;
}

/** About `bytes` of text that is each format's worst honest case: many valid GPU objects. */
function bigFile(kind: 'yaml' | 'hcl' | 'catalog' | 'comment', bytes: number): string {
  const unit: Record<typeof kind, (i: number) => string> = {
    yaml: (i) =>
      `---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: q${i}\nspec:\n  resourceGroups:\n    - coveredResources: ["nvidia.com/gpu"]\n      flavors:\n        - name: a100\n          resources:\n            - name: nvidia.com/gpu\n              nominalQuota: ${i % 64}\n`,
    hcl: (i) =>
      `resource "google_container_node_pool" "p${i}" {\n  name = "p${i}"\n  node_count = ${i % 9}\n  node_config {\n    machine_type = "a2-highgpu-1g"\n    guest_accelerator {\n      type  = "nvidia-tesla-a100"\n      count = 1\n    }\n  }\n}\n`,
    catalog: (i) =>
      `  - name: job-${i}\n    type: batch\n    queue: research\n    gpusPerJob: 2\n    runtime: 2h\n    jobsPerDay: 4\n    window: {earliestStart: "00:00", deadline: "06:00"}\n    interruptible: false\n`,
    comment: (i) => `/gpu-justify override ${'reason '.repeat(i % 20)}\n`,
  };
  const parts: string[] = kind === 'catalog' ? ['workloads:\n'] : [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = unit[kind](i);
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

/** Fixed attacks every target meets once per run, beside the random cases. */
export function specialInputs(bigBytes: number): { name: string; text: string }[] {
  return [
    { name: 'billion laughs', text: billionLaughs() },
    { name: 'deep flow nesting (10,000)', text: deepYaml(10_000, true) },
    { name: 'deep block nesting (2,000)', text: deepYaml(2_000, false) },
    { name: 'deep HCL nesting (5,000)', text: deepHcl(5_000) },
    { name: `YAML ${bigBytes} bytes`, text: bigFile('yaml', bigBytes) },
    { name: `HCL ${bigBytes} bytes`, text: bigFile('hcl', bigBytes) },
    { name: `catalog ${bigBytes} bytes`, text: bigFile('catalog', bigBytes) },
    { name: `comment ${bigBytes} bytes`, text: bigFile('comment', bigBytes) },
    { name: 'NUL and lone surrogates', text: 'kind: ClusterQueue\n\u0000\ud800 nominalQuota: \udfff\n' },
  ];
}

type Mutation =
  | { op: 'quantity'; at: number; value: string }
  | { op: 'proto'; at: number; line: string }
  | { op: 'truncate'; at: number }
  | { op: 'duplicate'; at: number; length: number }
  | { op: 'delete'; at: number; length: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'indent'; at: number; by: number }
  | { op: 'alias'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('quantity' as const), at: fc.nat(), value: fc.constantFrom(...HOSTILE_QUANTITIES) }),
  fc.record({ op: fc.constant('proto' as const), at: fc.nat(), line: fc.constantFrom(...PROTO_LINES) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), length: fc.nat({ max: 400 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.nat({ max: 40 }) }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('{', '}', '[', '"', "'", '${', '{{', '&x ', '*x', '<<: *x', '\t', ': ', '- ', '---\n', '#', '\\'),
    ),
  }),
  fc.record({ op: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ op: fc.constant('alias' as const), at: fc.nat() }),
);

const NUMBER = /(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g;

function applyMutation(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const line = lines.length === 0 ? 0 : m.at % lines.length;
  switch (m.op) {
    case 'quantity': {
      const numbers = [...text.matchAll(NUMBER)];
      const hit = numbers.length === 0 ? undefined : numbers[m.at % numbers.length];
      if (hit?.index === undefined) return text;
      return text.slice(0, hit.index) + m.value + text.slice(hit.index + hit[0].length);
    }
    case 'proto': {
      const indent = /^\s*/.exec(lines[line] ?? '')?.[0] ?? '';
      lines.splice(line, 0, ...m.line.split('\n').map((l) => indent + l));
      return lines.join('\n');
    }
    case 'truncate':
      return text.slice(0, m.at % (text.length + 1));
    case 'duplicate': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at, at + m.length) + text.slice(at);
    }
    case 'delete': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + m.length);
    }
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'indent': {
      const current = lines[line] ?? '';
      lines[line] = m.by >= 0 ? ' '.repeat(m.by) + current : current.slice(-m.by);
      return lines.join('\n');
    }
    case 'alias':
      // An anchor early, a merge of it later: aliases where a parser expects plain values.
      lines.splice(line, 0, `${/^\s*/.exec(lines[line] ?? '')?.[0] ?? ''}<<: *x`);
      return `x: &x {nominalQuota: .nan, count: -1}\n${lines.join('\n')}`;
  }
}

export function mutatedCorpus(seeds: readonly Seed[]): fc.Arbitrary<string> {
  return fc
    .record({ seed: fc.constantFrom(...seeds), mutations: fc.array(mutation, { minLength: 1, maxLength: 6 }) })
    .map(({ seed, mutations }) => mutations.reduce(applyMutation, seed.text));
}

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
