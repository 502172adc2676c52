import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * A local module whose GPU pool's count stays unknown when read through its calls (the caller hands
 * it a value picked by workspace, a variable with no default, a data source), changed in the module
 * itself: more copies (a `count` over a local list, a literal count, `for_each`) or a higher
 * autoscaling maximum. The module's changed file is not followed, never read as "no change".
 */

type Pool = 'gke' | 'eks' | 'aks';
type Given = 'workspace' | 'no-default' | 'data';
type Edit = 'local-list' | 'count' | 'for-each' | 'max';

interface Case {
  pool: Pool;
  given: Given;
  edit: Edit;
  before: number;
  after: number;
  callers: number;
}

const cases: fc.Arbitrary<Case> = fc
  .record({
    pool: fc.constantFrom<Pool>('gke', 'eks', 'aks'),
    given: fc.constantFrom<Given>('workspace', 'no-default', 'data'),
    edit: fc.constantFrom<Edit>('local-list', 'count', 'for-each', 'max'),
    before: fc.integer({ min: 1, max: 3 }),
    raise: fc.integer({ min: 1, max: 4 }),
    callers: fc.integer({ min: 1, max: 2 }),
  })
  .map(({ raise, ...c }) => ({ ...c, after: c.before + raise }));

function copies(c: Case, n: number): { meta: string; locals: string } {
  const keys = Array.from({ length: n }, (_, i) => `"k${i}"`).join(', ');
  if (c.edit === 'local-list') return { meta: 'count = length(local.copies)', locals: `locals {\n  copies = [${keys}]\n}\n` };
  if (c.edit === 'count') return { meta: `count = ${n}`, locals: '' };
  if (c.edit === 'for-each') return { meta: `for_each = toset([${keys}])`, locals: '' };
  return { meta: '', locals: '' };
}

function pool(c: Case, n: number): string {
  const { meta, locals } = copies(c, n);
  const max = c.edit === 'max' ? n * 4 : 4;
  const head = `${locals}\nvariable "pool" {}\n\n`;
  if (c.pool === 'gke')
    return `${head}resource "google_container_node_pool" "gpu" {\n  ${meta}\n  cluster  = "c"\n  location = "us-central1-a"\n  node_config {\n    machine_type = "n1-standard-8"\n    guest_accelerator {\n      type  = "nvidia-tesla-t4"\n      count = var.pool.gpus\n    }\n  }\n  autoscaling {\n    min_node_count = 0\n    max_node_count = ${max}\n  }\n}\n`;
  if (c.pool === 'eks')
    return `${head}resource "aws_eks_node_group" "gpu" {\n  ${meta}\n  cluster_name   = "c"\n  node_role_arn  = "arn"\n  subnet_ids     = ["s"]\n  instance_types = [var.pool.type]\n  scaling_config {\n    desired_size = 1\n    min_size     = 0\n    max_size     = ${max}\n  }\n}\n`;
  return `${head}resource "azurerm_kubernetes_cluster_node_pool" "gpu" {\n  ${meta}\n  name                  = "gpu"\n  kubernetes_cluster_id = "id"\n  vm_size               = var.pool.vm_size\n  auto_scaling_enabled  = true\n  min_count             = 0\n  max_count             = ${max}\n}\n`;
}

function caller(c: Case, i: number): string {
  const value = { gke: '{ gpus = 2 }', eks: '{ type = "g5.12xlarge" }', aks: '{ vm_size = "Standard_NC24ads_A100_v4" }' }[c.pool];
  const given = {
    workspace: `var.pools[terraform.workspace]`,
    'no-default': 'var.pool',
    data: 'data.external.pool.result',
  }[c.given];
  const decl =
    c.given === 'workspace'
      ? `variable "pools" {\n  default = {\n    dev = ${value}\n    prod = ${value}\n  }\n}\n`
      : c.given === 'no-default'
        ? 'variable "pool" {}\n'
        : 'data "external" "pool" {\n  program = ["./pool.sh"]\n}\n';
  return `${decl}\nmodule "gpu_${i}" {\n  source = "../../modules/gpu"\n  pool   = ${given}\n}\n`;
}

function tree(c: Case, n: number): Tree {
  const out: Tree = { 'modules/gpu/main.tf': pool(c, n) };
  for (let i = 0; i < c.callers; i++) out[`envs/e${i}/main.tf`] = caller(c, i);
  return out;
}

describe('a changed local module read through calls that leave its GPU count unknown', () => {
  it('is not followed, whatever multiplies the pool and however the call hands the unknown value', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const result = await detectPr(tree(c, c.before), tree(c, c.after));
        const file = result.coverage.find((f) => f.file === 'modules/gpu/main.tf');
        expect(file?.state).toBe('not-followed');
        expect(result.changes.every((ch) => ch.gpusAfter >= ch.gpusBefore)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});
