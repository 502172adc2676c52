import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

/**
 * Variables declared in Terraform's JSON syntax are accounted for as HCL ones are: a variable whose
 * default names a GPU, in `variables.tf.json` (blocks as objects or arrays of them, pretty or on
 * one line), is read where everything it feeds is read — a node group the parser counts, directly,
 * through a local, or through a local module call in JSON syntax — so a CPU-only change beside it
 * is "no change", read; its own change is counted. Where it feeds what nothing reads (a launch
 * template, a registry module), the file is not followed, never silently passed.
 */

interface Vars {
  gpuType: string;
  gpuMax: number;
  cpuMax: number;
}

type Spell = (body: Record<string, unknown>) => string;
const SPELLINGS: Record<string, Spell> = {
  pretty: (b) => `${JSON.stringify(b, null, 2)}\n`,
  oneLine: (b) => JSON.stringify(b),
  // `{"variable": {"x": [{…}]}}`: each block an array of one, as converters write them.
  arrays: (b) =>
    `${JSON.stringify(
      Object.fromEntries(
        Object.entries(b).map(([type, blocks]) => [
          type,
          type === 'locals' ? [blocks] : Object.fromEntries(Object.entries(blocks as object).map(([k, v]) => [k, [v]])),
        ]),
      ),
      null,
      2,
    )}\n`,
};

const variables = (v: Vars) => ({
  variable: {
    gpu_instance_type: { type: 'string', default: v.gpuType },
    gpu_max: { type: 'number', default: v.gpuMax },
    cpu_max: { type: 'number', default: v.cpuMax },
    cluster_version: { type: 'string', default: '1.33' },
  },
});

const group = (name: string, type: string, max: string) =>
  `resource "aws_eks_node_group" "${name}" {\n  cluster_name    = "main"\n  node_group_name = "${name}"\n  node_role_arn   = "arn:aws:iam::1:role/n"\n  subnet_ids      = ["subnet-1"]\n  instance_types  = [${type}]\n  scaling_config {\n    desired_size = 0\n    min_size     = 0\n    max_size     = ${max}\n  }\n}\n`;

/** Where the GPU variables go: every path ends in a node group the parser reads. */
const SINKS: Record<string, (spell: Spell) => Tree> = {
  direct: () => ({
    'infra/main.tf': group('gpu', 'var.gpu_instance_type', 'var.gpu_max') + group('cpu', '"m5.large"', 'var.cpu_max'),
  }),
  jsonLocal: (spell) => ({
    'infra/locals.tf.json': spell({ locals: { gpu: { type: '${var.gpu_instance_type}', max: '${var.gpu_max}' } } }),
    'infra/main.tf': group('gpu', 'local.gpu.type', 'local.gpu.max') + group('cpu', '"m5.large"', 'var.cpu_max'),
  }),
  jsonModuleCall: (spell) => ({
    'infra/main.tf.json': spell({
      module: {
        pools: { source: './modules/pools', gpu_type: '${var.gpu_instance_type}', gpu_max: '${var.gpu_max}', cpu_max: '${var.cpu_max}' },
      },
    }),
    'infra/modules/pools/variables.tf': 'variable "gpu_type" {}\nvariable "gpu_max" {}\nvariable "cpu_max" {}\n',
    'infra/modules/pools/main.tf': group('gpu', 'var.gpu_type', 'var.gpu_max') + group('cpu', '"m5.large"', 'var.cpu_max'),
  }),
};

const tree = (sink: string, spelling: string, v: Vars): Tree => {
  const spell = SPELLINGS[spelling] as Spell;
  return { 'infra/variables.tf.json': spell(variables(v)), ...(SINKS[sink] as (s: Spell) => Tree)(spell) };
};
const notFollowed = (r: Awaited<ReturnType<typeof detectPr>>) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

const arbVars = fc.record({
  gpuType: fc.constantFrom('g5.xlarge', 'p4d.24xlarge', 'g6e.12xlarge'),
  gpuMax: fc.integer({ min: 1, max: 16 }),
  cpuMax: fc.integer({ min: 1, max: 16 }),
});
const arbShape = fc.record({ sink: fc.constantFrom(...Object.keys(SINKS)), spelling: fc.constantFrom(...Object.keys(SPELLINGS)) });

describe('variables in .tf.json are accounted as in .tf', () => {
  it('a CPU-only change beside GPU variables is no change, read; a GPU variable changed is counted', async () => {
    await fc.assert(
      fc.asyncProperty(arbShape, arbVars, fc.integer({ min: 17, max: 32 }), async ({ sink, spelling }, v, more) => {
        const cpu = await detectPr(tree(sink, spelling, v), tree(sink, spelling, { ...v, cpuMax: more }));
        expect([cpu.changes, notFollowed(cpu)]).toEqual([[], []]);
        const gpu = await detectPr(tree(sink, spelling, v), tree(sink, spelling, { ...v, gpuMax: more }));
        const rows = gpu.changes.map((c) => [c.gpusAfter > c.gpusBefore, notFollowed(gpu).length]);
        // Counted, or honestly not followed: never a silent "no change".
        expect(rows.length > 0 || notFollowed(gpu).length > 0).toBe(true);
        if (notFollowed(gpu).length === 0) expect(rows[0]?.[0]).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('a GPU variable fed to what nothing reads stays not followed, however the JSON is spelt', async () => {
    const opaque: Record<string, Tree> = {
      launchTemplate: { 'infra/main.tf': 'resource "aws_launch_template" "gpu" {\n  instance_type = var.gpu_instance_type\n}\n' },
      registryModule: {
        'infra/main.tf.json': JSON.stringify({ module: { pools: { source: 'acme/pools/aws', gpu_type: '${var.gpu_instance_type}' } } }),
      },
      jsonLocalToTemplate: {
        'infra/locals.tf.json': JSON.stringify({ locals: { t: '${var.gpu_instance_type}' } }),
        'infra/main.tf': 'resource "aws_launch_template" "gpu" {\n  instance_type = local.t\n}\n',
      },
    };
    for (const [name, rest] of Object.entries(opaque)) {
      for (const [spelling, spell] of Object.entries(SPELLINGS)) {
        const side = (t: string) => ({ ...rest, 'infra/variables.tf.json': spell(variables({ gpuType: t, gpuMax: 4, cpuMax: 4 })) });
        const r = await detectPr(side('g5.xlarge'), side('p4d.24xlarge'));
        expect(notFollowed(r), `${name}, ${spelling}`).toContain('infra/variables.tf.json');
      }
    }
  });
});
