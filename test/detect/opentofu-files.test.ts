import { describe, expect, it } from 'vitest';
import { shadowedByTofu, withoutShadowedTf } from '../../src/detect/terraform/opentofu-files.js';
import { isTfFile } from '../../src/detect/terraform/tf-json.js';
import { detectPr } from './real-fixtures.js';

const POOL = (count: string) => `resource "google_container_node_pool" "pool" {
  name       = "pool"
  location   = "us-central1-a"
  node_count = ${count}
  node_config {
    machine_type = "g2-standard-4"
  }
}
`;
const VARS = (n: number) => `variable "nodes" {\n  type    = number\n  default = ${n}\n}\n`;
const JSON_POOL = (n: number) =>
  JSON.stringify(
    {
      resource: {
        google_container_node_pool: { pool: { location: 'us-central1-a', node_count: n, node_config: { machine_type: 'g2-standard-4' } } },
      },
    },
    null,
    1,
  );

type Result = Awaited<ReturnType<typeof detectPr>>;
const rows = (r: Result) => r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter]);
const unfollowed = (r: Result) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

/**
 * OpenTofu loads `.tofu` and `.tofu.json` files as it loads `.tf` files, and a `x.tofu` in place of
 * a `x.tf` of the same folder. A value set in a `.tofu` file is read like one set in a `.tf` file
 * (none names a GPU, so the floor alone would pass it as no capacity); a changed `.tf` file its
 * `.tofu` twin shadows is applied by Terraform and not by OpenTofu: not followed.
 */
describe('OpenTofu files', () => {
  it('takes .tofu and .tofu.json as configuration files, and knows which .tf files they shadow', () => {
    for (const p of ['main.tofu', 'a/b.tofu.json', 'main.tf', 'x.tf.json']) expect(isTfFile(p), p).toBe(true);
    for (const p of ['main.tofu.bak', 'x.tfvars', 'tofu', 'main.tofux']) expect(isTfFile(p), p).toBe(false);
    expect([...shadowedByTofu(['m/main.tf', 'm/main.tofu', 'm/vars.tf', 'm/x.tf.json', 'm/x.tofu.json', 'n/vars.tofu'])].sort()).toEqual([
      'm/main.tf',
      'm/x.tf.json',
    ]);
    // The listing every reader sees leaves out exactly those.
    const listed = ['m/main.tf', 'm/main.tofu', 'm/vars.tf', 'm/x.tf.json', 'm/x.tofu.json', 'm/y.tf', 'm/y.tofu.json', 'n/vars.tofu'];
    expect(withoutShadowedTf(listed)).toEqual(listed.filter((p) => !shadowedByTofu(listed).has(p)));
    expect(withoutShadowedTf(listed)).toEqual(['m/main.tofu', 'm/vars.tf', 'm/x.tofu.json', 'm/y.tf', 'm/y.tofu.json', 'n/vars.tofu']);
  });

  it('reads a variable default changed in a .tofu file that names no GPU', async () => {
    const base = { 'infra/main.tf': POOL('var.nodes'), 'infra/variables.tofu': VARS(1) };
    const r = await detectPr(base, { ...base, 'infra/variables.tofu': VARS(4) });
    expect(rows(r)).toEqual([['pool', 1, 4]]);
    expect(unfollowed(r)).toEqual([]);
  });

  it('reads the pool of a .tofu file, and of a .tofu.json file', async () => {
    const tofu = { 'infra/main.tofu': POOL('var.nodes'), 'infra/variables.tf': VARS(1) };
    expect(rows(await detectPr(tofu, { ...tofu, 'infra/main.tofu': POOL('3') }))).toEqual([['pool', 1, 3]]);
    const json = { 'infra/main.tofu.json': JSON_POOL(1) };
    expect(rows(await detectPr(json, { 'infra/main.tofu.json': JSON_POOL(3) }))).toEqual([['pool', 1, 3]]);
  });

  it('reads a folder as OpenTofu does: the .tofu twin, not the .tf file it shadows', async () => {
    const base = { 'infra/main.tf': POOL('2'), 'infra/main.tofu': POOL('var.nodes'), 'infra/variables.tf': VARS(1) };
    // One pool, as OpenTofu plans it (never two of the same address).
    expect(rows(await detectPr(base, { ...base, 'infra/main.tofu': POOL('7') }))).toEqual([['pool', 1, 7]]);
    expect(rows(await detectPr(base, { ...base, 'infra/variables.tf': VARS(6) }))).toEqual([['pool', 1, 6]]);
    // Terraform would apply the shadowed file's change: not followed, never "no change".
    const shadowed = await detectPr(base, { ...base, 'infra/main.tf': POOL('5') });
    expect(unfollowed(shadowed)).toEqual(['infra/main.tf']);
  });

  it('takes an OpenTofu override file as an override: merged into the variable it names', async () => {
    const base = { 'infra/main.tf': POOL('var.nodes'), 'infra/variables.tf': VARS(1), 'infra/nodes_override.tofu': VARS(1) };
    const r = await detectPr(base, { ...base, 'infra/nodes_override.tofu': VARS(9) });
    expect(rows(r)).toEqual([['pool', 1, 9]]);
    expect(unfollowed(r)).toEqual([]);
  });
});

const GPU_POOL = (count: string, machine = 'g2-standard-4', disk = 100) => `resource "google_container_node_pool" "pool" {
  name       = "pool"
  location   = "us-central1-a"
  node_count = ${count}
  node_config {
    machine_type = "${machine}"
    disk_size_gb = ${disk}
  }
}
`;
const CPU_POOL = (count: number) => GPU_POOL(`${count}`, 'n2-standard-8').replace(/"pool"/g, '"cpu"');

/**
 * A folder of twins is read as OpenTofu reads it and as Terraform does: where both readings plan
 * the same change it is judged once, each file by the tool that reads it; where they differ, the
 * changed files are not followed. Each shape is tried on every side of the pair and both syntaxes.
 */
describe('a folder of twins, read both ways', () => {
  const twin = (ext: 'tofu' | 'tofu.json', tf: 'tf' | 'tf.json') => ({ tofu: `infra/main.${ext}`, tf: `infra/main.${tf}` });
  const asJson = (hcl: string, n: number, machine: string, disk: number) =>
    hcl.endsWith('.json')
      ? JSON.stringify({
          resource: {
            google_container_node_pool: {
              pool: {
                name: 'pool',
                location: 'us-central1-a',
                node_count: n,
                node_config: [{ machine_type: machine, disk_size_gb: disk }],
              },
            },
          },
        })
      : GPU_POOL(`${n}`, machine, disk);
  for (const [ext, tf] of [
    ['tofu', 'tf'],
    ['tofu.json', 'tf.json'],
  ] as const) {
    const p = twin(ext, tf);
    const pool = (path: string, n: number, disk = 100, machine = 'g2-standard-4') => asJson(path, n, machine, disk);

    it(`${p.tofu} beside ${p.tf}: a CPU-only edit of the shadowed file, the twin stale, is no change`, async () => {
      const base = { [p.tf]: pool(p.tf, 2), [p.tofu]: pool(p.tofu, 2), 'infra/cpu.tf': CPU_POOL(1) };
      const r = await detectPr(base, { ...base, [p.tf]: pool(p.tf, 2, 200) });
      expect(rows(r)).toEqual([]);
      expect(unfollowed(r)).toEqual([]);
    });

    it(`${p.tofu} beside ${p.tf}: a CPU-only edit of the twin, the .tf file as it was, is no change`, async () => {
      const base = { [p.tf]: pool(p.tf, 2), [p.tofu]: pool(p.tofu, 2) };
      const r = await detectPr(base, { ...base, [p.tofu]: pool(p.tofu, 2, 200) });
      expect(rows(r)).toEqual([]);
      expect(unfollowed(r)).toEqual([]);
    });

    it(`${p.tofu} beside ${p.tf}: the same GPU change in both files is counted once`, async () => {
      const base = { [p.tf]: pool(p.tf, 2), [p.tofu]: pool(p.tofu, 2) };
      const r = await detectPr(base, { [p.tf]: pool(p.tf, 5), [p.tofu]: pool(p.tofu, 5) });
      expect(rows(r)).toEqual([['pool', 2, 5]]);
      expect(unfollowed(r)).toEqual([]);
    });

    it(`${p.tofu} beside ${p.tf}: a GPU change in one of them only is not followed, naming the twin`, async () => {
      const base = { [p.tf]: pool(p.tf, 2), [p.tofu]: pool(p.tofu, 2) };
      for (const edited of [p.tf, p.tofu]) {
        const r = await detectPr(base, { ...base, [edited]: pool(edited, 6) });
        expect(unfollowed(r), edited).toEqual([edited]);
        expect(r.diagnostics.find((d) => d.file === edited)?.message).toContain(`OpenTofu reads ${p.tofu} (for ${p.tf})`);
      }
    });

    it(`${p.tofu} beside ${p.tf}: a machine moved to a GPU type in the shadowed file only is not followed`, async () => {
      const base = { [p.tf]: pool(p.tf, 2, 100, 'n2-standard-8'), [p.tofu]: pool(p.tofu, 2, 100, 'n2-standard-8') };
      const r = await detectPr(base, { ...base, [p.tf]: pool(p.tf, 2, 100, 'a2-highgpu-1g') });
      expect(unfollowed(r)).toEqual([p.tf]);
    });
  }

  it('a shadowed root that names no GPU, its count feeding a GPU module, is not followed', async () => {
    const root = (n: number) => `module "gpu" {\n  source = "../modules/pool"\n  nodes  = ${n}\n}\n`;
    const mod = { 'modules/pool/main.tf': GPU_POOL('var.nodes'), 'modules/pool/variables.tf': VARS(1) };
    const base = { ...mod, 'live/main.tf': root(2), 'live/main.tofu': root(2) };
    const r = await detectPr(base, { ...base, 'live/main.tf': root(8) });
    expect(unfollowed(r)).toEqual(['live/main.tf']);
  });
});
