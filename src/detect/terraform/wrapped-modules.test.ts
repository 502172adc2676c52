import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * A local module of GPU pools wrapped in another local module (or two) that hands its own variables down,
 * the root giving the values (literally, through locals, a tfvars file, `count` or `for_each` over
 * the wrapper). A change in the inner module is read from the root, through both calls: a field
 * that sizes nothing is no change, a higher maximum is counted for every copy, and a root that
 * leaves the value unknown (a variable with no default) is not followed.
 */

type Pool = 'gke' | 'eks' | 'aks';
type Given = 'literal' | 'locals' | 'tfvars' | 'count' | 'for-each' | 'no-default';
type Edit = 'cpu-field' | 'max';

interface Case {
  pool: Pool;
  given: Given;
  edit: Edit;
  max: number;
  raise: number;
  /** Wrappers between the root and the module: one, or a wrapper of a wrapper. */
  wraps: number;
}

const cases: fc.Arbitrary<Case> = fc.record({
  pool: fc.constantFrom<Pool>('gke', 'eks', 'aks'),
  given: fc.constantFrom<Given>('literal', 'locals', 'tfvars', 'count', 'for-each', 'no-default'),
  edit: fc.constantFrom<Edit>('cpu-field', 'max'),
  max: fc.integer({ min: 1, max: 6 }),
  raise: fc.integer({ min: 1, max: 4 }),
  wraps: fc.integer({ min: 1, max: 2 }),
});

// What the root hands down, and the GPUs per node it gives: 2 T4, 4 A10G (g5.12xlarge), 1 A100 (NC24ads).
const VALUE = {
  gke: ['{ gpus = 2 }', 2],
  eks: ['{ type = "g5.12xlarge" }', 4],
  aks: ['{ vm_size = "Standard_NC24ads_A100_v4" }', 1],
} as const;
const COPIES = 2;

function inner(c: Case, after: boolean): string {
  const max = after && c.edit === 'max' ? c.max + c.raise : c.max;
  const field = after && c.edit === 'cpu-field';
  const head = 'variable "pool" {}\n\n';
  if (c.pool === 'gke')
    return `${head}resource "google_container_node_pool" "gpu" {\n  cluster  = "c"\n  location = "us-central1-a"\n  node_config {\n    machine_type = "n1-standard-8"\n    labels = { team = "${field ? 'b' : 'a'}" }\n    guest_accelerator {\n      type  = "nvidia-tesla-t4"\n      count = var.pool.gpus\n    }\n  }\n  autoscaling {\n    min_node_count  = 0\n    max_node_count  = ${max}\n    location_policy = "${field ? 'BALANCED' : 'ANY'}"\n  }\n}\n`;
  if (c.pool === 'eks')
    return `${head}resource "aws_eks_node_group" "gpu" {\n  cluster_name   = "c"\n  node_role_arn  = "arn"\n  subnet_ids     = ["s"]\n  instance_types = [var.pool.type]\n  labels         = { team = "${field ? 'b' : 'a'}" }\n  scaling_config {\n    desired_size = 1\n    min_size     = 0\n    max_size     = ${max}\n  }\n}\n`;
  return `${head}resource "azurerm_kubernetes_cluster_node_pool" "gpu" {\n  name                  = "gpu"\n  kubernetes_cluster_id = "id"\n  vm_size               = var.pool.vm_size\n  node_labels           = { team = "${field ? 'b' : 'a'}" }\n  auto_scaling_enabled  = true\n  min_count             = 0\n  max_count             = ${max}\n}\n`;
}

const wrapper = (calls: string) => `variable "pool" {}\n\nmodule "inner" {\n  source = "../${calls}"\n  pool   = var.pool\n}\n`;

function root(c: Case): Tree {
  const value = VALUE[c.pool][0];
  const call = (meta: string, pool: string) => `module "outer" {\n${meta}  source = "../../modules/outer"\n  pool   = ${pool}\n}\n`;
  if (c.given === 'literal') return { 'main.tf': call('', value) };
  if (c.given === 'locals') return { 'main.tf': `locals {\n  pool = ${value}\n}\n\n${call('', 'local.pool')}` };
  if (c.given === 'tfvars') return { 'main.tf': `variable "pool" {}\n\n${call('', 'var.pool')}`, 'terraform.tfvars': `pool = ${value}\n` };
  if (c.given === 'count') return { 'main.tf': call(`  count  = ${COPIES}\n`, value) };
  if (c.given === 'for-each')
    return { 'main.tf': `locals {\n  pools = { a = ${value}, b = ${value} }\n}\n\n${call('  for_each = local.pools\n', 'each.value')}` };
  return { 'main.tf': `variable "pool" {}\n\n${call('', 'var.pool')}` };
}

function tree(c: Case, after: boolean): Tree {
  const out: Tree = { 'modules/gpu/main.tf': inner(c, after), 'modules/outer/main.tf': wrapper(c.wraps === 1 ? 'gpu' : 'middle') };
  if (c.wraps === 2) out['modules/middle/main.tf'] = wrapper('gpu');
  for (const [name, text] of Object.entries(root(c))) out[`envs/prod/${name}`] = text;
  return out;
}

describe('a changed module wrapped by another local module, its values given at the root', () => {
  it('is read from the root: a field that sizes nothing is no change, a higher maximum is counted, an unknown value is not followed', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const result = await detectPr(tree(c, false), tree(c, true));
        const file = result.coverage.find((f) => f.file === 'modules/gpu/main.tf');
        if (c.given === 'no-default') {
          expect(file?.state).toBe('not-followed');
          return;
        }
        expect(file?.state, JSON.stringify(file)).not.toBe('not-followed');
        const copies = c.given === 'count' || c.given === 'for-each' ? COPIES : 1;
        const perNode = VALUE[c.pool][1];
        const before = result.changes.reduce((n, ch) => n + ch.gpusBefore, 0);
        const after = result.changes.reduce((n, ch) => n + ch.gpusAfter, 0);
        if (c.edit === 'cpu-field') expect(result.changes).toEqual([]);
        else expect([before, after]).toEqual([copies * c.max * perNode, copies * (c.max + c.raise) * perNode]);
      }),
      { numRuns: 30 },
    );
  });
});
