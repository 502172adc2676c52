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
