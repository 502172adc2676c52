import { describe, expect, it } from 'vitest';
import { accountSignals } from '../../src/detect/kit/signal-scan/account.js';
import { detectPr } from './real-fixtures.js';

const POOL = (count: number, machine = 'a2-highgpu-1g') => `resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  location   = "us-central1-a"
  node_count = ${count}
  node_config {
    machine_type = "${machine}"
  }
}
`;

const unfollowed = (r: Awaited<ReturnType<typeof detectPr>>) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);
const totals = (r: Awaited<ReturnType<typeof detectPr>>): [number, number] => [
  r.changes.reduce((n, c) => n + c.gpusBefore, 0),
  r.changes.reduce((n, c) => n + c.gpusAfter, 0),
];

/**
 * OpenTofu loads `.tofu` (and `.tofu.json`) files with the `.tf` files of their folder, and where
 * `x.tofu` and `x.tf` are both there it ignores `x.tf` (Terraform ignores `x.tofu`).
 */
describe('OpenTofu files', () => {
  it('reads a pool in a .tofu file as in a .tf one', async () => {
    const r = await detectPr({ 'gke/main.tofu': POOL(1) }, { 'gke/main.tofu': POOL(4) });
    expect(totals(r)).toEqual([1, 4]);
    expect(unfollowed(r)).toEqual([]);
  });

  it('reads a .tofu.json file as a .tf.json one, minified too', async () => {
    const json = (n: number) =>
      JSON.stringify({
        resource: {
          google_container_node_pool: {
            gpu: { name: 'gpu', location: 'us-central1-a', node_count: n, node_config: [{ machine_type: 'a2-highgpu-1g' }] },
          },
        },
      });
    const r = await detectPr({ 'gke/main.tofu.json': json(1) }, { 'gke/main.tofu.json': json(2) });
    expect(totals(r)).toEqual([1, 2]);
  });

  it('a change in a .tofu twin of an unchanged .tf file is not followed, and no pool is counted twice', async () => {
    const base = { 'gke/main.tf': POOL(1), 'gke/main.tofu': POOL(1) };
    const r = await detectPr(base, { ...base, 'gke/main.tofu': POOL(8) });
    expect(unfollowed(r)).toContain('gke/main.tofu');
    const [before, after] = totals(r);
    expect(before).toBeLessThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(8);
  });

  it('a change in the .tf file a .tofu twin shadows is not followed either', async () => {
    const base = { 'gke/main.tf': POOL(1), 'gke/main.tofu': POOL(1) };
    const r = await detectPr(base, { ...base, 'gke/main.tf': POOL(8) });
    expect(unfollowed(r)).toContain('gke/main.tf');
  });

  it('a folder of twins that names no GPU is left alone', async () => {
    const cpu = (n: number) => POOL(n, 'n2-standard-8').replace('"gpu"', '"cpu"').replace('"gpu"', '"cpu"');
    const base = { 'gke/main.tf': cpu(1), 'gke/main.tofu': cpu(1) };
    const r = await detectPr(base, { ...base, 'gke/main.tofu': cpu(3) });
    expect(unfollowed(r)).toEqual([]);
  });
});

/** Terraform's JSON syntax takes a `"//"` property of the file object or of a block body for a comment. */
describe('comments of .tf.json files', () => {
  const file = (comment: string) =>
    JSON.stringify(
      {
        '//': comment,
        resource: { google_container_node_pool: { cpu: { '//': comment, node_count: 2, tags: { '//': comment } } } },
        locals: { '//': comment, pools: { '//': comment } },
      },
      null,
      2,
    );

  it('are comments at the top and in block bodies, names in a map value', () => {
    const signals = accountSignals('main.tf.json', file('was 8 x p4d.24xlarge')).signals.filter((s) => s.token === 'p4d.24xlarge');
    expect(signals.map((s) => s.by)).toEqual(['comment', 'comment', 'label', 'comment', null]);
  });

  it('are not comments in a .json file Terraform does not read', () => {
    const signals = accountSignals('main.json', file('was 8 x p4d.24xlarge')).signals.filter((s) => s.token === 'p4d.24xlarge');
    expect(signals.some((s) => s.by === 'comment')).toBe(false);
  });
});

/** A `.tf.json` file on one line (as generators write it) is read as a pretty-printed one. */
describe('minified .tf.json', () => {
  it('reads a pool whose keys follow their opening braces', async () => {
    const json = (n: number) =>
      JSON.stringify({
        resource: {
          google_container_node_pool: {
            gpu: { location: 'us-central1-a', node_count: n, node_config: [{ machine_type: 'a2-highgpu-1g' }] },
          },
        },
      });
    const r = await detectPr({ 'gke/main.tf.json': json(1) }, { 'gke/main.tf.json': json(3) });
    expect(totals(r)).toEqual([1, 3]);
    expect(unfollowed(r)).toEqual([]);
  });
});
