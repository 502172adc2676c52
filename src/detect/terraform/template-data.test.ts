import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';

// `data "template_file"` (hashicorp/template) read as templatefile() is: every way of writing the
// template, handing the render to a resource, and placing the data block gives the same count.

const NODEPOOL = (limit: string) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      requirements:
        - key: karpenter.k8s.aws/instance-family
          operator: In
          values: ["p5"]
  limits:
    nvidia.com/gpu: ${limit}
`;
const QUEUE = (limit: string) => `resources:
  - apiVersion: kueue.x-k8s.io/v1beta1
    kind: ClusterQueue
    metadata:
      name: gpu
    spec:
      resourceGroups:
        - coveredResources: ["nvidia.com/gpu"]
          flavors:
            - name: a100
              resources:
                - name: nvidia.com/gpu
                  nominalQuota: ${limit}
`;

interface Variant {
  id: string;
  /** The template file's path under the module, or null for an inline template. */
  tpl: string | null;
  /** How `template =` reads it. */
  template: (body: string) => string;
  consumer: string;
  /** The consumer is read as a manifest (a `yaml_body` given through a local is not: the change is not followed). */
  reads: boolean;
  body: (limit: string) => string;
  kind: string;
  dataFile: 'main.tf' | 'data.tf';
}

const SOURCES: Pick<Variant, 'tpl' | 'template'>[] = [
  { tpl: 'templates/pool.tpl', template: () => 'file("${path.module}/templates/pool.tpl")' },
  { tpl: 'pool.yaml.tpl', template: () => 'file("pool.yaml.tpl")' },
  { tpl: 'files/pool.yaml.tftpl', template: () => 'file("./files/pool.yaml.tftpl")' },
  // Inline, `$${…}` is what the template provider sees as `${…}`.
  { tpl: null, template: (body) => `<<-EOT\n${body.replace(/\$\{/g, () => '$${')}EOT` },
];
const CONSUMERS: Pick<Variant, 'consumer' | 'reads' | 'body' | 'kind'>[] = [
  {
    consumer: 'resource "kubernetes_manifest" "pool" {\n  manifest = yamldecode(data.template_file.pool.rendered)\n}',
    reads: true,
    body: NODEPOOL,
    kind: 'karpenter-nodepool',
  },
  {
    consumer: 'locals {\n  pool = data.template_file.pool.rendered\n}\nresource "kubectl_manifest" "pool" {\n  yaml_body = local.pool\n}',
    reads: false,
    body: NODEPOOL,
    kind: 'karpenter-nodepool',
  },
  {
    consumer: 'resource "kubectl_manifest" "pool" {\n  yaml_body = data.template_file.pool.rendered\n}',
    reads: true,
    body: NODEPOOL,
    kind: 'karpenter-nodepool',
  },
  {
    consumer: 'resource "helm_release" "pool" {\n  name   = "pool"\n  chart  = "raw"\n  values = [data.template_file.pool.rendered]\n}',
    reads: true,
    body: QUEUE,
    kind: 'kueue-cluster-queue',
  },
];
const VARIANTS: Variant[] = SOURCES.flatMap((s) =>
  CONSUMERS.flatMap((c) =>
    (['main.tf', 'data.tf'] as const).map((dataFile) => ({
      ...s,
      ...c,
      dataFile,
      id: `${s.tpl ?? 'inline'} → ${c.consumer.slice(0, c.consumer.indexOf('\n'))} (${dataFile})`,
    })),
  ),
);

function tree(v: Variant, limit: number, vars = 'limit = var.gpu_limit\n    cluster = module.eks.cluster_name'): Record<string, string> {
  const body = v.body('${limit}');
  const data = `data "template_file" "pool" {\n  template = ${v.template(body)}\n  vars = {\n    ${vars}\n  }\n}\n`;
  const main = `variable "gpu_limit" {\n  default = ${limit}\n}\n${v.dataFile === 'main.tf' ? data : ''}${v.consumer}\n`;
  return {
    'm/main.tf': main,
    ...(v.dataFile === 'data.tf' ? { 'm/data.tf': data } : {}),
    ...(v.tpl === null ? {} : { [`m/${v.tpl}`]: body }),
  };
}

async function review(base: Record<string, string>, head: Record<string, string>) {
  const r = await detectPr(base, head);
  return {
    changes: r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter]),
    states: r.coverage.map((c) => [c.file, c.state]),
    warnings: r.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.message),
  };
}

describe('data "template_file" rendered with its vars', () => {
  it.each(VARIANTS)('a var handed to the template is counted in the render: $id', async (v) => {
    const r = await review(tree(v, 8), tree(v, 16));
    if (!v.reads) return void expect(r.states).toEqual([['m/main.tf', 'not-followed']]);
    expect(r.changes).toEqual([[v.kind, 'gpu', 8, 16]]);
    // An inline template is also a heredoc of its .tf, read on its own as YAML with `${limit}`
    // unknown: the same object, and its file not followed.
    expect(r.states).toEqual([['m/main.tf', v.tpl === null && v.dataFile === 'main.tf' ? 'not-followed' : 'read']]);
  });

  it.each(VARIANTS.filter((v) => v.tpl !== null))('a template changed alone is read as it renders: $id', async (v) => {
    const head = tree(v, 8);
    const tpl = `m/${v.tpl ?? ''}`;
    head[tpl] = (head[tpl] ?? '').replace('${limit}', '${limit * 2}');
    const r = await review(tree(v, 8), head);
    if (!v.reads) return void expect(r.states).toEqual([[tpl, 'not-followed']]);
    expect(r.changes).toEqual([[v.kind, 'gpu', 8, 16]]);
    expect(r.states).toEqual([[tpl, 'read']]);
  });

  it.each(VARIANTS.filter((v) => v.tpl !== null && v.reads && v.dataFile === 'main.tf'))(
    'a template missing from the tree is not followed, naming it: $id',
    async (v) => {
      const head = tree(v, 16);
      delete head[`m/${v.tpl ?? ''}`];
      const r = await review(tree(v, 8), head);
      expect(r.states).toContainEqual(['m/main.tf', 'not-followed']);
      expect(r.warnings.join('\n')).toContain(v.tpl ?? '');
    },
  );

  const UNREADABLE: [string, string][] = [
    ['a var the data source does not give', 'limit = var.gpu_limit\n    other = 1'],
    ['a var from a data source elsewhere', 'limit = data.aws_ssm_parameter.limit.value'],
  ];
  it.each(VARIANTS.filter((v) => v.dataFile === 'main.tf').flatMap((v) => UNREADABLE.map(([why, vars]) => ({ ...v, why, vars }))))(
    'a render that cannot be told is not followed: $why, $id',
    async (v) => {
      const head = tree(v, 16, v.vars);
      if (v.why.startsWith('a var the data')) for (const [p, t] of Object.entries(head)) head[p] = t.replace('${limit}', '${gpus}');
      const r = await review(tree(v, 8), head);
      expect(r.states).toContainEqual(['m/main.tf', 'not-followed']);
    },
  );

  it.each(VARIANTS.filter((v) => v.tpl !== null && v.reads && v.dataFile === 'main.tf'))(
    'a template in syntax this tool cannot read is not followed, naming it: $id',
    async (v) => {
      const head = tree(v, 16);
      const tpl = `m/${v.tpl ?? ''}`;
      head[tpl] = (head[tpl] ?? '').replace('${limit}', '${limit +}');
      const r = await review(tree(v, 8), head);
      expect(r.states).toContainEqual(['m/main.tf', 'not-followed']);
      expect(r.warnings.join('\n')).toContain(v.tpl ?? '');
    },
  );

  it.each(VARIANTS.filter((v) => v.dataFile === 'main.tf'))('a data source copied with count is not followed: $id', async (v) => {
    const head = tree(v, 16);
    head['m/main.tf'] = (head['m/main.tf'] ?? '').replace('data "template_file" "pool" {', 'data "template_file" "pool" {\n  count = 1');
    const r = await review(tree(v, 8), head);
    expect(r.states).toContainEqual(['m/main.tf', 'not-followed']);
  });
});

describe('data "template_file" in a module read through its call', () => {
  // A called module is read through its call without its Kubernetes manifests: a GPU value handed
  // to a render there is not followed, never a silent "no change".
  it.each(VARIANTS.filter((v) => v.reads && v.dataFile === 'main.tf' && v.tpl !== null))('$id', async (v) => {
    const call = (t: string) =>
      `variable "instance_type" {\n  default = "${t}"\n}\nmodule "pools" {\n  source        = "./modules/pools"\n  instance_type = var.instance_type\n}\n`;
    const inner = Object.fromEntries(
      Object.entries(tree(v, 8, 'limit = 8\n    instance_type = var.instance_type')).map(([p, t]) => [
        p.replace(/^m\//, 'r/modules/pools/'),
        p === 'm/main.tf' ? t.replace('variable "gpu_limit"', 'variable "instance_type" {}\nvariable "gpu_limit"') : t,
      ]),
    );
    const r = await review({ ...inner, 'r/main.tf': call('t3.medium') }, { ...inner, 'r/main.tf': call('p5.48xlarge') });
    expect(r.states).toEqual([['r/main.tf', 'not-followed']]);
  });
});
