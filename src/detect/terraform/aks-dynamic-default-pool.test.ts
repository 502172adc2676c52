import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * An AKS cluster whose default pool is written as `dynamic "default_node_pool"` blocks (as
 * Azure/terraform-azurerm-aks writes it: a manually scaled and an autoscaled shape, each made by
 * a `for_each` of one element or none), in a module called by a root with its values. The pool the
 * `for_each` picks is counted; one whose `for_each` cannot be known is not followed when its size
 * is a GPU size.
 */

type Each = 'list' | 'set' | 'map';
type Given = 'literal' | 'tfvars' | 'unknown-flag';

interface Case {
  autoscale: boolean;
  each: Each;
  iterator: boolean;
  given: Given;
  nodes: number;
  raise: number;
}

const cases: fc.Arbitrary<Case> = fc.record({
  autoscale: fc.boolean(),
  each: fc.constantFrom<Each>('list', 'set', 'map'),
  iterator: fc.boolean(),
  given: fc.constantFrom<Given>('literal', 'tfvars', 'unknown-flag'),
  nodes: fc.integer({ min: 1, max: 5 }),
  raise: fc.integer({ min: 1, max: 3 }),
});

function forEach(c: Case, on: string): string {
  const one = { list: '["pool"]', set: 'toset(["pool"])', map: '{ pool = true }' }[c.each];
  const none = { list: '[]', set: 'toset([])', map: '{}' }[c.each];
  return `${on} ? ${one} : ${none}`;
}

function block(c: Case, autoscaled: boolean): string {
  const it = c.iterator ? 'pool' : 'default_node_pool';
  const on = autoscaled ? 'var.auto_scaling_enabled' : '!var.auto_scaling_enabled';
  const size = autoscaled
    ? 'max_count            = var.agents_max_count\n      min_count            = 0'
    : 'node_count           = var.agents_count';
  return `  dynamic "default_node_pool" {\n    for_each = ${forEach(c, on)}\n${c.iterator ? `    iterator = ${it}\n` : ''}    content {\n      name                 = "system"\n      vm_size              = var.agents_size\n      auto_scaling_enabled = var.auto_scaling_enabled\n      ${size}\n    }\n  }\n`;
}

function module(c: Case): string {
  const vars = ['agents_size', 'agents_count', 'agents_max_count', 'auto_scaling_enabled'].map((v) => `variable "${v}" {}\n`).join('');
  return `${vars}\nresource "azurerm_kubernetes_cluster" "main" {\n  name = "aks"\n${block(c, false)}${block(c, true)}}\n`;
}

function root(c: Case, nodes: number): Tree {
  const flag = c.given === 'unknown-flag' ? 'var.autoscale' : String(c.autoscale);
  const sizeKey = c.autoscale ? 'agents_max_count' : 'agents_count';
  const other = c.autoscale ? 'agents_count' : 'agents_max_count';
  const values = `agents_size = "Standard_NC24ads_A100_v4"\n${sizeKey} = ${nodes}\n${other} = 1\n`;
  const decl = c.given === 'unknown-flag' ? 'variable "autoscale" {}\n' : '';
  if (c.given === 'tfvars')
    return {
      'envs/prod/main.tf': `variable "agents_size" {}\nvariable "${sizeKey}" {}\nvariable "${other}" {}\n\nmodule "aks" {\n  source               = "../../modules/aks"\n  agents_size          = var.agents_size\n  ${sizeKey} = var.${sizeKey}\n  ${other} = var.${other}\n  auto_scaling_enabled = ${flag}\n}\n`,
      'envs/prod/terraform.tfvars': values,
    };
  const args = values
    .trim()
    .split('\n')
    .map((l) => `  ${l}\n`)
    .join('');
  return {
    'envs/prod/main.tf': `${decl}module "aks" {\n  source               = "../../modules/aks"\n${args}  auto_scaling_enabled = ${flag}\n}\n`,
  };
}

const tree = (c: Case, nodes: number): Tree => ({ 'modules/aks/main.tf': module(c), ...root(c, nodes) });

describe('a dynamic default_node_pool in a module, given its values by the root', () => {
  it('counts the pool its for_each picks, and is not followed where the for_each cannot be known', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const result = await detectPr(tree(c, c.nodes), tree(c, c.nodes + c.raise));
        const changed = result.coverage.filter((f) => f.state === 'not-followed');
        if (c.given === 'unknown-flag') {
          expect(changed.length + result.diagnostics.filter((d) => d.severity === 'error').length).toBeGreaterThan(0);
          return;
        }
        expect(changed, JSON.stringify(changed)).toEqual([]);
        const rows = result.changes.map((ch) => [ch.kind, ch.gpusBefore, ch.gpusAfter]);
        expect(rows).toEqual([['aks-node-pool', c.nodes, c.nodes + c.raise]]);
      }),
      { numRuns: 30 },
    );
  });
});
