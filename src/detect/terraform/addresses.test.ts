import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { movesIn, withMoves } from './addresses.js';
import { parseTerraformFile } from './tf-json.js';

/** A node pool resource of each cloud, `nodes` of it at most, named by the expression `name`. */
interface Shape {
  type: string;
  perNode: number;
  block: (label: string, name: string, nodes: number, meta: string) => string;
}

const SHAPES: Shape[] = [
  {
    type: 'google_container_node_pool',
    perNode: 1,
    block: (label, name, nodes, meta) =>
      `resource "google_container_node_pool" "${label}" {\n${meta}  name     = ${name}\n  location = "us-central1-a"\n  cluster  = "hub"\n  autoscaling {\n    max_node_count = ${nodes}\n  }\n  node_config {\n    machine_type = "a2-highgpu-1g"\n  }\n}\n`,
  },
  {
    type: 'aws_eks_node_group',
    perNode: 8,
    block: (label, name, nodes, meta) =>
      `resource "aws_eks_node_group" "${label}" {\n${meta}  node_group_name = ${name}\n  instance_types  = ["p4d.24xlarge"]\n  scaling_config {\n    min_size = 0\n    max_size = ${nodes}\n  }\n}\n`,
  },
  {
    type: 'azurerm_kubernetes_cluster_node_pool',
    perNode: 1,
    block: (label, name, nodes, meta) =>
      `resource "azurerm_kubernetes_cluster_node_pool" "${label}" {\n${meta}  name       = ${name}\n  vm_size    = "Standard_NC24ads_A100_v4"\n  node_count = ${nodes}\n}\n`,
  },
];

const moved = (from: string, to: string) => `moved {\n  from = ${from}\n  to   = ${to}\n}\n`;
const NAMELESS = 'variable "pool_name" {\n  type    = string\n  default = null\n}\n';

/**
 * One rewrite of a pool's address or name between base and head, in the module's own files: the
 * GPUs Terraform plans after it (`net`), and whether it pairs the pool (one row at most) or
 * destroys and creates it (a removal and an addition).
 */
interface Rewrite {
  what: string;
  base: (s: Shape, nodes: number) => string;
  head: (s: Shape, nodes: number) => string;
  paired: boolean;
}

const REWRITES: Rewrite[] = [
  {
    what: 'the name comes from a variable whose default changed',
    base: (s, n) => s.block('gpu', '"tf-${var.cluster}-gpu"', n, '') + 'variable "cluster" {\n  default = ""\n}\n',
    head: (s, n) => s.block('gpu', '"tf-${var.cluster}-gpu"', n, '') + 'variable "cluster" {\n  default = "prod"\n}\n',
    paired: true,
  },
  {
    what: 'the name is left to a variable with no value',
    base: (s, n) => s.block('gpu', '"tf-gpu"', n, '') + NAMELESS,
    head: (s, n) => s.block('gpu', 'var.pool_name', n, '') + NAMELESS,
    paired: true,
  },
  {
    what: 'the resource renamed with a moved block',
    base: (s, n) => s.block('gpu', 'var.pool_name', n, '') + NAMELESS,
    head: (s, n) => s.block('accel', 'var.pool_name', n, '') + NAMELESS + moved(`${s.type}.gpu`, `${s.type}.accel`),
    paired: true,
  },
  {
    what: 'the resource renamed twice, through a chain of moved blocks',
    base: (s, n) => s.block('gpu', 'var.pool_name', n, '') + NAMELESS,
    head: (s, n) =>
      s.block('gpu3', 'var.pool_name', n, '') +
      NAMELESS +
      moved(`${s.type}.gpu`, `${s.type}.gpu2`) +
      moved(`${s.type}.gpu2`, `${s.type}.gpu3`),
    paired: true,
  },
  {
    what: 'the resource renamed without a moved block',
    base: (s, n) => s.block('gpu', 'var.pool_name', n, '') + NAMELESS,
    head: (s, n) => s.block('accel', 'var.pool_name', n, '') + NAMELESS,
    paired: false,
  },
  {
    what: 'a for_each key renamed with a moved block',
    base: (s, n) => s.block('gpu', 'each.key', n, '  for_each = toset(["a100"])\n'),
    head: (s, n) =>
      s.block('gpu', 'each.key', n, '  for_each = toset(["a100-big"])\n') + moved(`${s.type}.gpu["a100"]`, `${s.type}.gpu["a100-big"]`),
    paired: true,
  },
  {
    what: 'a for_each key renamed without a moved block',
    base: (s, n) => s.block('gpu', 'each.key', n, '  for_each = toset(["a100"])\n'),
    head: (s, n) => s.block('gpu', 'each.key', n, '  for_each = toset(["a100-big"])\n'),
    paired: false,
  },
  {
    what: 'count turned into for_each with a moved block',
    base: (s, n) => s.block('gpu', '"pool-${count.index}"', n, '  count = 1\n'),
    head: (s, n) =>
      s.block('gpu', '"pool-${each.key}"', n, '  for_each = toset(["main"])\n') + moved(`${s.type}.gpu[0]`, `${s.type}.gpu["main"]`),
    paired: true,
  },
  {
    what: 'count turned into for_each without a moved block',
    base: (s, n) => s.block('gpu', '"pool-${count.index}"', n, '  count = 1\n'),
    head: (s, n) => s.block('gpu', '"pool-${each.key}"', n, '  for_each = toset(["main"])\n'),
    paired: false,
  },
];

/** The PR's rows, and the GPUs it adds in all. */
async function review(base: Tree, head: Tree) {
  const got = await detectPr(base, head);
  return {
    rows: got.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter]),
    net: got.changes.reduce((n, c) => n + c.delta, 0),
    states: got.coverage.map((c) => c.state),
  };
}

describe('Terraform pools paired by address', () => {
  for (const s of SHAPES)
    for (const r of REWRITES)
      for (const [from, to] of [
        [4, 4],
        [4, 6],
      ] as const)
        it(`${s.type}: ${r.what}, ${from} → ${to} nodes`, async () => {
          const got = await review({ 'infra/gpu.tf': r.base(s, from) }, { 'infra/gpu.tf': r.head(s, to) });
          // Whatever the rewrite, Terraform plans the head's GPUs in place of the base's.
          expect(got.net).toBe((to - from) * s.perNode);
          expect(got.states).toEqual(['read']);
          if (r.paired) expect(got.rows).toEqual(from === to ? [] : [[expect.any(String), from * s.perNode, to * s.perNode]]);
          else
            expect(got.rows.map((x) => [x[1], x[2]]).sort()).toEqual(
              [
                [0, to * s.perNode],
                [from * s.perNode, 0],
              ].sort(),
            );
        });
});

describe('a module call renamed or copied, through a local module', () => {
  const MODULE: Tree = {
    'modules/pool/main.tf': SHAPES[0]?.block('gpu', 'var.pool_name', 4, '') ?? '',
    'modules/pool/variables.tf': NAMELESS,
  };
  const call = (label: string, meta = '') => `module "${label}" {\n${meta}  source = "../modules/pool"\n}\n`;
  const CALLS: [what: string, base: string, head: string, paired: boolean][] = [
    ['renamed with a moved block', call('gpu'), call('accel') + moved('module.gpu', 'module.accel'), true],
    ['renamed without a moved block', call('gpu'), call('accel'), false],
    [
      'given a for_each with a moved block',
      call('gpu'),
      call('gpu', '  for_each = toset(["main"])\n') + moved('module.gpu', 'module.gpu["main"]'),
      true,
    ],
    ['given a for_each without a moved block', call('gpu'), call('gpu', '  for_each = toset(["main"])\n'), false],
    [
      'count turned into for_each with a moved block',
      call('gpu', '  count = 1\n'),
      call('gpu', '  for_each = toset(["main"])\n') + moved('module.gpu[0]', 'module.gpu["main"]'),
      true,
    ],
  ];
  for (const [what, base, head, paired] of CALLS)
    it(`${what}: the net is the head's GPUs less the base's`, async () => {
      const got = await review({ ...MODULE, 'env/main.tf': base }, { ...MODULE, 'env/main.tf': head });
      expect(got.net).toBe(0);
      expect(got.states).toEqual(['read']);
      // Without a moved block the pool is destroyed and created (or, named alike, one pool): never a change of GPUs.
      if (paired) expect(got.rows).toEqual([]);
      else expect(got.rows.length === 0 || got.rows.length === 2).toBe(true);
    });

  it('a moved block inside the module and a renamed call compose', async () => {
    const inner = {
      'modules/pool/main.tf':
        (SHAPES[0]?.block('accel', 'var.pool_name', 6, '') ?? '') +
        moved('google_container_node_pool.gpu', 'google_container_node_pool.accel'),
    };
    const got = await review(
      { ...MODULE, 'env/main.tf': call('gpu', '  pool_name = null\n') },
      { ...MODULE, ...inner, 'env/main.tf': call('accel', '  pool_name = null\n') + moved('module.gpu', 'module.accel') },
    );
    expect(got.rows).toEqual([[expect.any(String), 4, 6]]);
  });
});

describe('moved blocks read', () => {
  it('in HCL and JSON syntax alike, chains followed and what is not an address left out', () => {
    const hcl = parseTerraformFile(
      'a.tf',
      moved('module.a', 'module.b') + moved('module.b["x"].r.p', 'module.c.r.p') + moved('var.x', 'local.y'),
    );
    const json = parseTerraformFile(
      'a.tf.json',
      JSON.stringify({
        moved: [
          { from: 'module.a', to: 'module.b' },
          { from: 'x(1)', to: 'y' },
        ],
      }),
    );
    expect(hcl.ok && json.ok).toBe(true);
    if (!hcl.ok || !json.ok) return;
    expect(movesIn([json.value])).toEqual([{ from: 'module.a', to: 'module.b' }]);
    const moves = movesIn([hcl.value]);
    expect(withMoves({ at: 'module.c.r.p', formerly: [] }, moves).formerly).toEqual(['module.b["x"].r.p', 'module.a["x"].r.p']);
    // A prefix that is not a whole step of the address moves nothing.
    expect(withMoves({ at: 'module.bb.r.p', formerly: [] }, moves).formerly).toEqual([]);
  });
});
