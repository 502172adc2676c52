import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { detectChanges } from '../detect-changes.js';
import { parseTerraformSet } from './terraform-parser.js';
import type { ChangeSet } from '../../domain/index.js';
import { lineOf } from '../../../test/detect/fixtures.js';

const one = (text: string, path = 'main.tf') => parseTerraformSet([{ path, text }]);
const summary = (r: ReturnType<typeof one>) => r.decls.map((d) => [d.name, d.gpus, d.gpuModel, d.line]);

interface Pool {
  [key: string]: string | number | boolean;
}

const hcl = (v: string | number | boolean) => (typeof v === 'string' && !/^(var|local)\./.test(v) ? JSON.stringify(v) : String(v));

/** A module call as the module's README writes it: a literal list of maps. */
function gkeModule(
  pools: Pool[],
  extra = '  regional = true\n  zones = ["us-central1-a", "us-central1-b"]\n',
  source = 'terraform-google-modules/kubernetes-engine/google//modules/private-cluster',
): string {
  const items = pools
    .map(
      (p) =>
        `    {\n${Object.entries(p)
          .map(([k, v]) => `      ${k} = ${hcl(v)}`)
          .join('\n')}\n    },`,
    )
    .join('\n');
  return `module "gke" {\n  source  = "${source}"\n  version = "~> 36.0"\n  project_id = "p"\n  name = "ml"\n  region = "us-central1"\n${extra}  node_pools = [\n${items}\n  ]\n}\n`;
}

const cpu: Pool = { name: 'default', machine_type: 'e2-standard-8', min_count: 1, max_count: 3 };
const l4 = (max: number): Pool => ({
  name: 'gpu-l4',
  machine_type: 'g2-standard-24',
  accelerator_count: 2,
  accelerator_type: 'nvidia-l4',
  min_count: 0,
  max_count: max,
});

function changeSet(base: string, head: string): ChangeSet {
  return {
    base: { label: 'base', read: async (p) => (p === 'infra/gke.tf' ? base : null) },
    head: { label: 'head', read: async (p) => (p === 'infra/gke.tf' ? head : null) },
    changedPaths: async () => ['infra/gke.tf'],
  };
}

describe('terraform-google-modules/kubernetes-engine node_pools', () => {
  it('max_count × zones × accelerator_count, at the max_count line, GPU pools only', () => {
    const text = gkeModule([cpu, l4(2)]);
    const r = one(text);
    expect(summary(r)).toEqual([['gpu-l4', 2 * 2 * 2, 'L4', lineOf(text, 'max_count = 2')]]);
    expect(r.decls[0]?.parts[0]?.label).toBe("gpu-l4: 4 nodes × 2 GPUs (per zone × 2 zones (the module's zones))");
    expect(r.diagnostics).toEqual([]);
    expect(r.unresolved).toEqual([]);
  });

  it('raising max_count from 2 to 4 is a +8 GPU change (2 zones × 2 GPUs per node)', async () => {
    const { changes, diagnostics } = await detectChanges(changeSet(gkeModule([cpu, l4(2)]), gkeModule([cpu, l4(4)])));
    expect(diagnostics).toEqual([]);
    expect(changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.delta, c.gpuModel])).toEqual([
      ['gke-node-pool', 'gpu-l4', 8, 16, 8, 'L4'],
    ]);
    expect(changes[0]?.line).toBe(lineOf(gkeModule([cpu, l4(4)]), 'max_count = 4'));
    expect(changes[0]?.usdPerMonthDelta).toBeGreaterThan(0);
  });

  it('adding a GPU pool is a change from 0; a CPU-only change is none', async () => {
    const h100: Pool = {
      name: 'train',
      machine_type: 'a3-highgpu-8g',
      accelerator_count: 8,
      accelerator_type: 'nvidia-h100-80gb',
      autoscaling: false,
      node_count: 1,
    };
    const added = await detectChanges(changeSet(gkeModule([cpu, l4(2)]), gkeModule([cpu, l4(2), h100])));
    expect(added.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter, c.gpuModel])).toEqual([['train', 0, 16, 'H100']]);

    const bigger = { ...cpu, max_count: 30, machine_type: 'n2-standard-16' };
    const cpuOnly = await detectChanges(changeSet(gkeModule([cpu, l4(2)]), gkeModule([bigger, l4(2)])));
    expect(cpuOnly.changes).toEqual([]);
    expect(cpuOnly.diagnostics).toEqual([]);
  });

  it('autoscaling = false counts node_count; total_max_count is a total, not per zone', () => {
    const fixed = gkeModule([
      {
        name: 'fixed',
        accelerator_count: 1,
        accelerator_type: 'nvidia-tesla-t4',
        machine_type: 'n1-standard-8',
        autoscaling: false,
        node_count: 3,
        max_count: 50,
      },
    ]);
    expect(summary(one(fixed))).toEqual([['fixed', 3 * 2, 'T4', lineOf(fixed, 'node_count = 3')]]);
    const total = gkeModule([{ name: 'tot', machine_type: 'g2-standard-4', min_count: 0, max_count: 9, total_max_count: 5 }]);
    expect(summary(one(total))).toEqual([['tot', 5, 'L4', lineOf(total, 'total_max_count')]]);
  });

  it('A2/A3/G2 machine types carry their GPUs without accelerator_count', () => {
    const text = gkeModule([{ name: 'a100', machine_type: 'a2-highgpu-2g', max_count: 1 }]);
    expect(summary(one(text))).toEqual([['a100', 2 * 2, 'A100', lineOf(text, 'max_count = 1')]]);
  });

  it('node_locations is a comma-separated string; unknown zones show one zone with a warning', () => {
    const text = gkeModule([{ ...l4(3), node_locations: 'us-central1-a,us-central1-b,us-central1-c' }], '');
    expect(one(text).decls[0]?.gpus).toBe(3 * 3 * 2);
    // The zones are unknown but their number is not.
    const templated = gkeModule([{ ...l4(3), node_locations: '${var.region}-b,${var.region}-c' }], '');
    expect(one(templated).decls[0]?.gpus).toBe(3 * 2 * 2);
    const unknown = gkeModule([l4(3)], '  zones = var.zones\n');
    const r = one(unknown);
    expect(r.decls[0]?.gpus).toBe(3 * 2);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        line: lineOf(unknown, 'max_count = 3'),
        severity: 'warning',
        message: match.stringContaining('module.gke.node_pools[0] (gpu-l4): node counts are per zone and the number of zones is unknown'),
      }),
    ]);
  });

  it('module defaults: max_count 100 per zone, a regional cluster without zones gets 3 zones', () => {
    const text = gkeModule([{ name: 'big', accelerator_count: 1, accelerator_type: 'nvidia-l4', machine_type: 'g2-standard-4' }], '');
    const r = one(text);
    expect(summary(r)).toEqual([['big', 100 * 3, 'L4', lineOf(text, 'name = "big"') - 1]]);
    expect(r.decls[0]?.parts[0]?.label).toContain('max_count not set: the module default of 100');
    expect(r.decls[0]?.parts[0]?.label).toContain('the module picks 3 zones');
  });

  it('values of list(map(any)) arrive as strings; variables and tfvars resolve as elsewhere', () => {
    const text = gkeModule([
      {
        name: 'gpu',
        accelerator_count: '1',
        accelerator_type: 'nvidia-l4',
        machine_type: 'g2-standard-8',
        autoscaling: 'false',
        node_count: 'var.gpu_nodes',
      },
    ]);
    const vars = 'variable "gpu_nodes" {\n  type = number\n  default = 2\n}\n';
    const set = (tfvars?: string) =>
      parseTerraformSet([
        { path: 'gke/main.tf', text },
        { path: 'gke/variables.tf', text: vars },
        ...(tfvars ? [{ path: 'gke/terraform.tfvars', text: tfvars }] : []),
      ]);
    expect(set().decls.map((d) => d.gpus)).toEqual([2 * 2]);
    expect(set('gpu_nodes = 5\n').decls.map((d) => d.gpus)).toEqual([5 * 2]);
  });

  it('node_pools from a variable: read from tfvars, located at the node_pools line', () => {
    const text = gkeModule([]).replace(/node_pools = \[[\s\S]*?\n {2}\]/, 'node_pools = var.node_pools');
    const vars = 'variable "node_pools" {\n  type = list(map(any))\n}\n';
    const tfvars =
      'node_pools = [\n  { name = "cpu", machine_type = "e2-medium" },\n  { name = "gpu", accelerator_count = 4, accelerator_type = "nvidia-tesla-a100", machine_type = "a2-highgpu-4g", max_count = 2 },\n]\n';
    const r = parseTerraformSet([
      { path: 'm/main.tf', text },
      { path: 'm/variables.tf', text: vars },
      { path: 'm/terraform.tfvars', text: tfvars },
    ]);
    expect(summary(r)).toEqual([['gpu', 2 * 2 * 4, 'A100', lineOf(text, 'node_pools = var.node_pools')]]);
    const alone = parseTerraformSet([{ path: 'm/main.tf', text }]);
    expect(alone.decls).toEqual([]);
    expect(alone.unresolved?.map((u) => u.name)).toEqual(['module.gke.node_pools']);
    expect(alone.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('node_pools comes from var.node_pools')]);
  });

  it('an accelerator_count that cannot be evaluated makes the pool unknown, never 0', () => {
    const text = gkeModule([
      { name: 'gpu', accelerator_count: 'var.gpus', accelerator_type: 'nvidia-l4', machine_type: 'g2-standard-4', max_count: 2 },
    ]);
    const r = one(text);
    expect(r.decls).toEqual([]);
    expect(r.unresolved).toEqual([{ file: 'main.tf', line: lineOf(text, 'name = "gpu"') - 1, kind: 'gke-node-pool', name: 'gpu' }]);
    expect(r.diagnostics.map((d) => [d.line, d.message])).toEqual([
      [lineOf(text, 'accelerator_count'), expect.stringContaining('accelerator_count comes from var.gpus')],
    ]);
  });

  it('git sources count; another module handed GPU node_pools is not counted but flagged', () => {
    const git = gkeModule(
      [l4(1)],
      '',
      'git::https://github.com/terraform-google-modules/terraform-google-kubernetes-engine.git//modules/beta-private-cluster?ref=v35.0.0',
    );
    expect(one(git).decls.map((d) => d.name)).toEqual(['gpu-l4']);
    // A local module read alone (its folder is followed through the call when it is in the tree).
    const local = one(gkeModule([l4(1)], '', './modules/my-gke'));
    expect(local.decls).toEqual([]);
    expect(local.notFollowed?.filter((n) => n.inputs?.includes('node_pools')).map((n) => [n.reason, n.subject])).toEqual([
      ['local-module', 'module.gke'],
    ]);
  });

  it("the module's own cluster.tf beside a call is not counted a second time", () => {
    const call = gkeModule([cpu, l4(2)]);
    const internals =
      'resource "google_container_node_pool" "pools" {\n  for_each = local.node_pools\n  name = each.key\n  node_config {\n    dynamic "guest_accelerator" {\n      for_each = lookup(each.value, "accelerator_count", 0) > 0 ? [1] : []\n      content {\n        type  = lookup(each.value, "accelerator_type", "")\n        count = lookup(each.value, "accelerator_count", 0)\n      }\n    }\n  }\n}\n';
    const r = parseTerraformSet([
      { path: 'm/main.tf', text: call },
      { path: 'm/cluster.tf', text: internals },
    ]);
    expect(r.decls.map((d) => [d.file, d.name, d.gpus])).toEqual([['m/main.tf', 'gpu-l4', 8]]);
    expect(r.unresolved?.map((u) => [u.file, u.name])).toEqual([['m/cluster.tf', 'pools']]);
  });
});
