import { describe, expect, it } from 'vitest';
import { sizingChanges } from '../../src/detect/program-sources.js';
import { detectPr } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

type Result = Awaited<ReturnType<typeof detectPr>>;
const notFollowed = (r: Result, file: string) => r.coverage.find((c) => c.file === file)?.state === 'not-followed';

/** One program's node group, in the languages Pulumi and the CDK ship for: its size, its machines from `machines` (an expression). */
interface Language {
  name: string;
  file: string;
  program: (machines: string, max: number, version: string) => string;
  /** How the language reads a configuration key (`key`) into the expression `program` takes. */
  config: (key: string) => string;
  /** How it takes a constant `NAME` from another of the program's files (`lib/sizes.*`), and that file. */
  constant: { use: string; file: string; text: (value: string) => string };
}

const LANGUAGES: readonly Language[] = [
  {
    name: 'Pulumi TypeScript',
    file: 'index.ts',
    program: (m, max, v) =>
      `import * as pulumi from "@pulumi/pulumi";\nimport * as eks from "@pulumi/eks";\nimport { NODE_TYPE } from "./lib/sizes";\nconst cfg = new pulumi.Config();\nconst cluster = new eks.Cluster("ml", { version: "${v}", skipDefaultNodeGroup: true });\nnew eks.ManagedNodeGroup("workers", {\n    cluster,\n    instanceTypes: [${m}],\n    scalingConfig: { minSize: 0, desiredSize: 1, maxSize: ${max} },\n});\n`,
    config: (k) => `cfg.require("${k}")`,
    constant: { use: 'NODE_TYPE', file: 'lib/sizes.ts', text: (v) => `export const NODE_TYPE = "${v}";\n` },
  },
  {
    name: 'Pulumi Python',
    file: '__main__.py',
    program: (m, max, v) =>
      `import pulumi\nimport pulumi_eks as eks\nfrom lib.sizes import NODE_TYPE\n\ncfg = pulumi.Config()\ncluster = eks.Cluster("ml", version="${v}", skip_default_node_group=True)\neks.ManagedNodeGroup(\n    "workers",\n    cluster=cluster,\n    instance_types=[${m}],\n    scaling_config=eks.ManagedNodeGroupScalingConfigArgs(min_size=0, desired_size=1, max_size=${max}),\n)\n`,
    config: (k) => `cfg.require("${k}")`,
    constant: { use: 'NODE_TYPE', file: 'lib/sizes.py', text: (v) => `NODE_TYPE = "${v}"\n` },
  },
  {
    name: 'Pulumi Go',
    file: 'main.go',
    program: (m, max, v) =>
      `package main\n\nimport (\n\t"example.com/ml/lib"\n\t"github.com/pulumi/pulumi-eks/sdk/go/eks"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tcfg := config.New(ctx, "")\n\t\t_ = lib.NodeType\n\t\t_, err := eks.NewManagedNodeGroup(ctx, "workers", &eks.ManagedNodeGroupArgs{\n\t\t\tVersion:       pulumi.String("${v}"),\n\t\t\tInstanceTypes: pulumi.StringArray{pulumi.String(${m})},\n\t\t\tScalingConfig: &eks.NodeGroupScalingConfigArgs{MinSize: pulumi.Int(0), DesiredSize: pulumi.Int(1), MaxSize: pulumi.Int(${max})},\n\t\t})\n\t\treturn err\n\t})\n}\n`,
    config: (k) => `cfg.Require("${k}")`,
    constant: { use: 'lib.NodeType', file: 'lib/sizes.go', text: (v) => `package lib\n\nconst NodeType = "${v}"\n` },
  },
  {
    name: 'AWS CDK TypeScript',
    file: 'lib/ml-stack.ts',
    program: (m, max, v) =>
      `import * as cdk from 'aws-cdk-lib';\nimport * as ec2 from 'aws-cdk-lib/aws-ec2';\nimport * as eks from 'aws-cdk-lib/aws-eks';\nimport { NODE_TYPE } from './sizes';\n\nexport class MlStack extends cdk.Stack {\n  constructor(scope: cdk.App, id: string) {\n    super(scope, id);\n    const cluster = new eks.Cluster(this, 'ml', { version: eks.KubernetesVersion.of('${v}'), defaultCapacity: 0 });\n    cluster.addNodegroupCapacity('workers', {\n      instanceTypes: [new ec2.InstanceType(${m})],\n      minSize: 0,\n      maxSize: ${max},\n    });\n  }\n}\n`,
    config: (k) => `this.node.tryGetContext('${k}')`,
    constant: { use: 'NODE_TYPE', file: 'lib/sizes.ts', text: (v) => `export const NODE_TYPE = '${v}';\n` },
  },
  {
    name: 'AWS CDK Python',
    file: 'ml/ml_stack.py',
    program: (m, max, v) =>
      `from aws_cdk import Stack, aws_ec2 as ec2, aws_eks as eks\nfrom ml.sizes import NODE_TYPE\n\n\nclass MlStack(Stack):\n    def __init__(self, scope, id):\n        super().__init__(scope, id)\n        cluster = eks.Cluster(self, "ml", version=eks.KubernetesVersion.of("${v}"), default_capacity=0)\n        cluster.add_nodegroup_capacity(\n            "workers",\n            instance_types=[ec2.InstanceType(${m})],\n            min_size=0,\n            max_size=${max},\n        )\n`,
    config: (k) => `self.node.try_get_context("${k}")`,
    constant: { use: 'NODE_TYPE', file: 'ml/sizes.py', text: (v) => `NODE_TYPE = "${v}"\n` },
  },
];

const isCdk = (l: Language) => l.name.startsWith('AWS CDK');
const PROJECT = (l: Language) => (isCdk(l) ? 'cdk.json' : 'Pulumi.yaml');
const projectFile = (l: Language, context: Record<string, string> = {}) =>
  isCdk(l)
    ? `${JSON.stringify({ app: 'npx ts-node bin/app.ts', context }, null, 2)}\n`
    : `name: ml\nruntime: ${l.file.endsWith('.py') ? 'python' : l.file.endsWith('.go') ? 'go' : 'nodejs'}\n`;

/** Where the program's machines are named: a stack's or app's configuration, or a constants file. */
type Placement = 'config' | 'constant';

function program(l: Language, where: Placement, machine: string, max: number, version = '1.30', root = 'infra'): Tree {
  const at = (p: string) => `${root}/${p}`;
  if (where === 'constant')
    return {
      [at(PROJECT(l))]: projectFile(l),
      [at(l.file)]: l.program(l.constant.use, max, version),
      [at(l.constant.file)]: l.constant.text(machine),
    };
  const tree: Tree = { [at(l.file)]: l.program(l.config('nodeType'), max, version) };
  if (isCdk(l)) tree[at('cdk.json')] = projectFile(l, { nodeType: machine });
  else Object.assign(tree, { [at('Pulumi.yaml')]: projectFile(l), [at('Pulumi.prod.yaml')]: `config:\n  ml:nodeType: ${machine}\n` });
  return tree;
}

async function resized(l: Language, where: Placement, machine: string, edit: 'max' | 'version'): Promise<Result> {
  const base = program(l, where, machine, 2);
  const file = `infra/${l.file}`;
  // The head is the same program with the group's maximum raised, or its Kubernetes version bumped.
  const head = edit === 'max' ? program(l, where, machine, 8) : program(l, where, machine, 2, '1.31');
  return detectPr(base, { ...base, [file]: head[file] ?? '' });
}

/**
 * A program's source file that names no GPU sizes a node group whose machines another of its
 * files names: its stack configuration, its app's context, a constants file. No reader evaluates
 * the program; the file alone shows no GPU name, so the floor reads the program it belongs to.
 */
describe('a changed source file of a program whose GPU names are in its other files', () => {
  for (const l of LANGUAGES)
    for (const where of ['config', 'constant'] as const) {
      it(`${l.name}, machines from ${where === 'config' ? "the program's configuration" : 'a constants file'}: a raised maximum is not followed`, async () => {
        const r = await resized(l, where, 'p4d.24xlarge', 'max');
        expect(r.changes).toEqual([]);
        expect(notFollowed(r, `infra/${l.file}`)).toBe(true);
        const note = r.coverage.find((c) => c.file === `infra/${l.file}`)?.notFollowed?.[0];
        expect(note?.reason).toBe('program-config');
        expect(note?.needs).toContain('p4d.24xlarge');
      });

      it(`${l.name}, machines from ${where}: the same raise on CPU machines is no capacity`, async () => {
        const r = await resized(l, where, 'm6i.large', 'max');
        expect(r.coverage.every((c) => c.state !== 'not-followed')).toBe(true);
      });

      it(`${l.name}, machines from ${where}: a version bump sizes nothing`, async () => {
        const r = await resized(l, where, 'p4d.24xlarge', 'version');
        expect(r.coverage.every((c) => c.state !== 'not-followed')).toBe(true);
      });
    }

  const YAML_PROGRAM = (max: number, version: string) =>
    `name: ml\nruntime: yaml\nconfig:\n  nodeType:\n    type: string\nresources:\n  cluster:\n    type: eks:Cluster\n    properties:\n      version: "${version}"\n      skipDefaultNodeGroup: true\n  workers:\n    type: eks:ManagedNodeGroup\n    properties:\n      cluster: \${cluster}\n      instanceTypes:\n        - \${nodeType}\n      scalingConfig:\n        minSize: 0\n        desiredSize: 1\n        maxSize: ${max}\n`;
  const yamlProgram = (machine: string, max: number, version = '1.30'): Tree => ({
    'Pulumi.yaml': YAML_PROGRAM(max, version),
    'Pulumi.prod.yaml': `config:\n  ml:nodeType: ${machine}\n`,
  });

  it('a Pulumi YAML program: its resources resized is not followed when its stack names GPUs', async () => {
    const r = await detectPr(yamlProgram('g5.12xlarge', 2), yamlProgram('g5.12xlarge', 8));
    expect(notFollowed(r, 'Pulumi.yaml')).toBe(true);
  });

  it('a Pulumi YAML program: resized on CPU machines, or its version bumped, is no capacity', async () => {
    for (const [base, head] of [
      [yamlProgram('m6i.large', 2), yamlProgram('m6i.large', 8)],
      [yamlProgram('g5.12xlarge', 2), yamlProgram('g5.12xlarge', 2, '1.31')],
    ] as const) {
      const r = await detectPr(base, head);
      expect(r.coverage.every((c) => c.state !== 'not-followed')).toBe(true);
    }
  });

  it('a program in a subfolder of its project is read with the whole project', async () => {
    const l = LANGUAGES[0] as Language;
    const tree = program(l, 'constant', 'a3-highgpu-8g', 2, '1.30', 'deploy/ml');
    const moved = Object.fromEntries(
      Object.entries(tree).map(([p, t]) => [p.replace('deploy/ml/index.ts', 'deploy/ml/src/groups/index.ts'), t]),
    );
    const head = {
      ...moved,
      'deploy/ml/src/groups/index.ts': (moved['deploy/ml/src/groups/index.ts'] ?? '').replace('maxSize: 2', 'maxSize: 8'),
    };
    const r = await detectPr(moved, head);
    expect(notFollowed(r, 'deploy/ml/src/groups/index.ts')).toBe(true);
  });
});

describe('what a changed line of a program may size', () => {
  it('names sizes, counts, machines and bare numbers; not versions, tags or comments', () => {
    expect(sizingChanges('maxSize: 2,', 'maxSize: 8,', false, true)).toEqual(['maxSize']);
    expect(sizingChanges('replicas = 2', 'replicas = 3', true, false)).toEqual(['replicas']);
    expect(sizingChanges('foo(2)', 'foo(3)', false, true)).toEqual(['foo']);
    expect(sizingChanges('x: "3"', 'x: "4"', true, false)).toEqual(['x']);
    expect(sizingChanges('version: "v1.13.1"', 'version: "v1.13.2"', true, false)).toEqual([]);
    expect(sizingChanges('version: 1.30', 'version: 1.31', true, false)).toEqual([]);
    expect(sizingChanges('tags: { team: "ml" }', 'tags: { team: "ai" }', false, true)).toEqual([]);
    expect(sizingChanges('// maxSize: 2', '// maxSize: 8', false, true)).toEqual([]);
    expect(sizingChanges('# max_size=2', '# max_size=8', true, false)).toEqual([]);
    // Another copy of a stack, in the languages' ways of making one.
    expect(sizingChanges('', "new GpuStack(app, 'ml-2');", false, true)).toEqual(['GpuStack']);
    expect(sizingChanges('', 'GpuStack(app, "ml-2")', true, false)).toEqual(['GpuStack']);
    expect(sizingChanges('', 'NewNodePool(ctx, "ml-2", args)', false, true)).toEqual(['NewNodePool']);
    expect(sizingChanges("new GpuStack(app, 'ml');", "new GpuStack(app, 'ml-a');", false, true)).toEqual([]);
  });
});
