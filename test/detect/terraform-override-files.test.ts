import { describe, expect, it } from 'vitest';
import { isOverrideFile } from '../../src/detect/terraform/override-files.js';
import { detectPr } from './real-fixtures.js';

const POOL = (count: number | string, machine = 'a2-highgpu-1g') => `resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  location   = "us-central1-a"
  node_count = ${count}
  node_config {
    machine_type = "${machine}"
  }
}
`;
const OVERRIDE = (count: number) => `resource "google_container_node_pool" "gpu" {\n  node_count = ${count}\n}\n`;
const MACHINE = (machine: string) =>
  `resource "google_container_node_pool" "gpu" {\n  node_config {\n    machine_type = "${machine}"\n  }\n}\n`;

type Result = Awaited<ReturnType<typeof detectPr>>;
const unfollowed = (r: Result) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);
const rows = (r: Result) => r.changes.map((c) => [c.gpusBefore, c.gpusAfter]);

/**
 * Terraform merges `override.tf` and `*_override.tf` (and their `.tf.json` and OpenTofu `.tofu`
 * forms) into the blocks they name before it plans, each argument there replacing the original's
 * and each nested block type replacing the original's blocks of that type: the pools counted are
 * the merged ones, whichever file the pull request changes.
 */
describe('Terraform override files', () => {
  it('names the files Terraform treats as overrides, and no others', () => {
    for (const p of [
      'override.tf',
      'gke/override.tf.json',
      'a/b/pools_override.tf',
      'x_override.tf.json',
      '_override.tf',
      'x_override.tofu',
    ])
      expect(isOverrideFile(p), p).toBe(true);
    for (const p of ['overrides.tf', 'pools-override.tf', 'override.tfvars', 'override.tf.bak', 'gke/override/main.tf', 'my_override.hcl'])
      expect(isOverrideFile(p), p).toBe(false);
  });

  describe.each(['gke/override.tf', 'gke/pools_override.tf', 'gke/override.tf.json', 'gke/main_override.tf.json', 'gke/x_override.tofu'])(
    '%s',
    (override) => {
      const text = (n: number) =>
        override.endsWith('.json') ? JSON.stringify({ resource: { google_container_node_pool: { gpu: { node_count: n } } } }) : OVERRIDE(n);

      it('a count changed only in the override file is read as the change', async () => {
        const base = { 'gke/main.tf': POOL(0), [override]: text(2) };
        const r = await detectPr(base, { ...base, [override]: text(8) });
        expect(rows(r)).toEqual([[2, 8]]);
        expect(unfollowed(r)).toEqual([]);
      });

      it('a decoy changed in the overridden block is no change: the override sets the count', async () => {
        const base = { 'gke/main.tf': POOL(1), [override]: text(4) };
        const r = await detectPr(base, { ...base, 'gke/main.tf': POOL(0) });
        expect(rows(r)).toEqual([]);
        expect(unfollowed(r)).toEqual([]);
      });

      it('an override file the pull request adds or removes is counted in and out', async () => {
        const added = await detectPr({ 'gke/main.tf': POOL(1) }, { 'gke/main.tf': POOL(0), [override]: text(8) });
        expect(rows(added)).toEqual([[1, 8]]);
        const removed = await detectPr({ 'gke/main.tf': POOL(0), [override]: text(8) }, { 'gke/main.tf': POOL(3) });
        expect(rows(removed)).toEqual([[8, 3]]);
        expect([...unfollowed(added), ...unfollowed(removed)]).toEqual([]);
      });
    },
  );

  it('a nested block in the override replaces the original blocks of its type: a machine type made GPU, and back', async () => {
    const cpu = { 'gke/main.tf': POOL(2, 'n2-standard-8') };
    const raised = await detectPr(cpu, { ...cpu, 'gke/override.tf': MACHINE('a2-highgpu-2g') });
    expect(rows(raised)).toEqual([[0, 4]]);
    const gpu = { 'gke/main.tf': POOL(2, 'a2-highgpu-2g') };
    const lowered = await detectPr(gpu, { ...gpu, 'gke/override.tf': MACHINE('n2-standard-8') });
    expect(rows(lowered)).toEqual([[4, 0]]);
  });

  it('later override files win: lexical order of their names', async () => {
    const base = { 'gke/main.tf': POOL(1), 'gke/a_override.tf': OVERRIDE(2), 'gke/b_override.tf': OVERRIDE(3) };
    const r = await detectPr(base, { ...base, 'gke/a_override.tf': OVERRIDE(9) });
    expect(rows(r)).toEqual([]);
    const later = await detectPr(base, { ...base, 'gke/b_override.tf': OVERRIDE(5) });
    expect(rows(later)).toEqual([[3, 5]]);
  });

  it('an override of an argument that is no capacity is no change', async () => {
    const base = { 'gke/main.tf': POOL(2) };
    const r = await detectPr(base, {
      ...base,
      'gke/override.tf': 'resource "google_container_node_pool" "gpu" {\n  location = "us-central1-b"\n}\n',
    });
    expect(rows(r)).toEqual([]);
    expect(unfollowed(r)).toEqual([]);
  });

  it('a variable default and a local set in an override file are the values the pool takes', async () => {
    const base = {
      'gke/main.tf': `${POOL('local.nodes * var.scale')}\nlocals {\n  nodes = 1\n}\n`,
      'gke/variables.tf': 'variable "scale" {\n  type    = number\n  default = 1\n}\n',
    };
    const r = await detectPr(base, {
      ...base,
      'gke/override.tf': 'variable "scale" {\n  default = 2\n}\n\nlocals {\n  nodes = 3\n}\n',
    });
    expect(rows(r)).toEqual([[1, 6]]);
  });

  it('what the merge cannot apply leaves the folder not followed: a dynamic block, a block with nothing to merge into', async () => {
    const base = { 'gke/main.tf': POOL(1) };
    const dynamic = `resource "google_container_node_pool" "gpu" {
  dynamic "node_config" {
    for_each = [1]
    content {
      machine_type = "a2-highgpu-8g"
    }
  }
}
`;
    const r = await detectPr(base, { ...base, 'gke/override.tf': dynamic });
    expect(unfollowed(r)).toContain('gke/override.tf');
    const missing = await detectPr(base, { 'gke/main.tf': POOL(2), 'gke/override.tf': OVERRIDE(8).replace('"gpu"', '"other"') });
    expect(unfollowed(missing).sort()).toEqual(['gke/main.tf', 'gke/override.tf']);
  });

  it('a folder without one is read as before', async () => {
    const r = await detectPr(
      { 'gke/main.tf': POOL(1), 'other/override.tf': OVERRIDE(4) },
      { 'gke/main.tf': POOL(2), 'other/override.tf': OVERRIDE(4) },
    );
    expect(unfollowed(r)).toEqual([]);
    expect(rows(r)).toEqual([[1, 2]]);
  });
});
