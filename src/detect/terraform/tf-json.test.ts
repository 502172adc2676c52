import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import { parseTerraformSet } from './terraform-parser.js';

const HCL = `variable "gpu_nodes" {
  type    = number
  default = 2
}
resource "google_container_node_pool" "gpu" {
  for_each   = toset(["a", "b"])
  name       = "gpu"
  location   = "us-central1-a"
  node_count = var.gpu_nodes
  node_config {
    machine_type = "a2-highgpu-1g"
    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 1
    }
  }
}
`;

/** The same module in Terraform's JSON syntax, as `terraform show`-style generators write it. */
const JSON_TWIN = JSON.stringify(
  {
    '//': 'generated',
    variable: { gpu_nodes: { type: 'number', default: 2 } },
    resource: {
      google_container_node_pool: {
        gpu: {
          for_each: '${toset(["a", "b"])}',
          name: 'gpu',
          location: 'us-central1-a',
          node_count: '${var.gpu_nodes}',
          node_config: [{ machine_type: 'a2-highgpu-1g', guest_accelerator: { type: 'nvidia-tesla-a100', count: 1 } }],
        },
      },
    },
  },
  null,
  2,
);

const rows = (path: string, text: string) => parseTerraformSet([{ path, text }]).decls.map((d) => [d.name, d.gpus, d.gpuModel]);

describe('Terraform in JSON syntax', () => {
  it('reads a .tf.json twin as its .tf, at the line of its count', () => {
    expect(rows('infra/main.tf.json', JSON_TWIN)).toEqual(rows('infra/main.tf', HCL));
    expect(rows('infra/main.tf.json', JSON_TWIN)).toEqual([['gpu', 4, 'A100']]);
    const [decl] = parseTerraformSet([{ path: 'infra/main.tf.json', text: JSON_TWIN }]).decls;
    expect(JSON_TWIN.split('\n')[(decl?.line ?? 0) - 1]).toContain('"node_count"');
  });

  it('applies a .tfvars.json, whose strings are values, never expressions', async () => {
    const base = { 'infra/main.tf.json': JSON_TWIN, 'infra/terraform.tfvars.json': '{ "gpu_nodes": 3 }' };
    const head = { ...base, 'infra/terraform.tfvars.json': '{ "gpu_nodes": 5 }' };
    const r = await detectPr(base, head);
    expect(r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['gpu', 6, 10]]);
    const literal = parseTerraformSet([
      { path: 'infra/main.tf.json', text: JSON_TWIN },
      { path: 'infra/terraform.tfvars.json', text: '{ "gpu_nodes": "${var.other}" }' },
    ]);
    expect(literal.unresolved?.map((u) => u.name)).toEqual(['gpu']);
  });

  it('says a .tf.json that is not JSON cannot be read', () => {
    const r = parseTerraformSet([{ path: 'infra/main.tf.json', text: '{ "resource": ' }]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', message: expect.stringContaining('not valid JSON') as unknown }),
    ]);
  });
});

/**
 * Strings of JSON syntax escape the quotes of the expressions they interpolate; the braces and
 * quotes those expressions hold must not hide the blocks after them.
 */
const INTERPOLATIONS = [
  '${var.ami == \\"\\" ? data.aws_ami.x.id : var.ami}',
  '${format(\\"%s-{gpu}\\", var.name)}',
  '${jsonencode({\\"a\\" = \\"}\\"})}',
  '${replace(var.path, \\"\\\\\\\\\\", \\"/\\")}',
  'plain \\"quoted\\" {text}',
  '%{ if var.on }\\"on\\"%{ endif }',
];

describe('Terraform in JSON syntax, interpolations that escape their quotes', () => {
  const subsets = INTERPOLATIONS.flatMap((_, i) => [[i], [i, (i + 1) % INTERPOLATIONS.length, (i + 3) % INTERPOLATIONS.length]]);
  it.each(subsets.map((s) => [s.join(',')]))('before the pool and inside it (%s): the pool is still found, at its count', (ids) => {
    const exprs = ids.split(',').map((i) => INTERPOLATIONS[Number(i)] ?? '');
    const attrs = exprs.map((e, i) => `"noise_${i}": "${e}"`).join(',\n          ');
    const text = `{
  "locals": [{ ${exprs.map((e, i) => `"l${i}": "${e}"`).join(', ')} }],
  "resource": {
    "google_container_node_pool": {
      "gpu": {
          ${attrs},
          "for_each": "\${toset([\\"a\\", \\"b\\"])}",
          "name": "gpu",
          "location": "us-central1-a",
          "node_count": "\${var.gpu_nodes}",
          "node_config": [{ "machine_type": "a2-highgpu-1g", "guest_accelerator": { "type": "nvidia-tesla-a100", "count": 1 } }]
      }
    }
  },
  "variable": { "gpu_nodes": { "type": "number", "default": 2 } }
}`;
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    const [decl] = parseTerraformSet([{ path: 'infra/main.tf.json', text }]).decls;
    expect([decl?.name, decl?.gpus, decl?.gpuModel]).toEqual(['gpu', 4, 'A100']);
    expect(text.split('\n')[(decl?.line ?? 0) - 1]).toContain('"node_count"');
  });
});
