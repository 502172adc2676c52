import { describe, expect, it } from 'vitest';
import { isOverrideFile } from '../../src/detect/terraform/override-files.js';
import { detectPr } from './real-fixtures.js';

const POOL = (count: number) => `resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  location   = "us-central1-a"
  node_count = ${count}
  node_config {
    machine_type = "a2-highgpu-1g"
  }
}
`;
const OVERRIDE = (count: number) => `resource "google_container_node_pool" "gpu" {\n  node_count = ${count}\n}\n`;

const unfollowed = (r: Awaited<ReturnType<typeof detectPr>>) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

/**
 * Terraform merges `override.tf` and `*_override.tf` (and their `.tf.json` forms) into the blocks
 * they name before it plans: a count set there, or a decoy left in the block, is not what the
 * folder's files say alone. Whichever file the pull request changes, the folder is not followed.
 */
describe('Terraform override files', () => {
  it('names the files Terraform treats as overrides, and no others', () => {
    for (const p of ['override.tf', 'gke/override.tf.json', 'a/b/pools_override.tf', 'x_override.tf.json', '_override.tf'])
      expect(isOverrideFile(p), p).toBe(true);
    for (const p of ['overrides.tf', 'pools-override.tf', 'override.tfvars', 'override.tf.bak', 'gke/override/main.tf', 'my_override.hcl'])
      expect(isOverrideFile(p), p).toBe(false);
  });

  describe.each(['gke/override.tf', 'gke/pools_override.tf', 'gke/override.tf.json', 'gke/main_override.tf.json'])('%s', (override) => {
    const text = (n: number) =>
      override.endsWith('.json') ? JSON.stringify({ resource: { google_container_node_pool: { gpu: { node_count: n } } } }) : OVERRIDE(n);

    it('a count changed only in the override file is not followed, never "no change"', async () => {
      const base = { 'gke/main.tf': POOL(0), [override]: text(2) };
      const r = await detectPr(base, { ...base, [override]: text(8) });
      expect(unfollowed(r)).toContain(override);
      expect(r.changes.every((c) => c.gpusAfter <= 8)).toBe(true);
    });

    it('a decoy changed in the overridden block is not followed, never read as the count', async () => {
      const base = { 'gke/main.tf': POOL(1), [override]: text(4) };
      const r = await detectPr(base, { ...base, 'gke/main.tf': POOL(0) });
      expect(unfollowed(r)).toEqual(['gke/main.tf']);
    });

    it('an override file the pull request adds or removes makes the folder not followed', async () => {
      const added = await detectPr({ 'gke/main.tf': POOL(1) }, { 'gke/main.tf': POOL(0), [override]: text(8) });
      expect(unfollowed(added).sort()).toEqual(['gke/main.tf', override].sort());
      const removed = await detectPr({ 'gke/main.tf': POOL(0), [override]: text(8) }, { 'gke/main.tf': POOL(8) });
      expect(unfollowed(removed)).toContain('gke/main.tf');
    });
  });

  it('a folder without one is read as before', async () => {
    const r = await detectPr(
      { 'gke/main.tf': POOL(1), 'other/override.tf': OVERRIDE(4) },
      { 'gke/main.tf': POOL(2), 'other/override.tf': OVERRIDE(4) },
    );
    expect(unfollowed(r)).toEqual([]);
    expect(r.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[1, 2]]);
  });
});
