import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';

/** [file, state, reasons…] of each changed file, and the changes. */
async function review(base: Record<string, string>, head: Record<string, string>) {
  const r = await detectPr(base, head);
  return {
    changes: r.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter]),
    coverage: r.coverage.map((c) => [
      c.file,
      c.state,
      ...(c.notFollowed ?? []).map((n) => `${n.reason} ${n.subject} ${(n.inputs ?? []).join(',')}`),
    ]),
  };
}

const POOL_MODULE = `variable "node_count" {
  type = number
}
variable "region" {
  type = string
}
resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  location   = "us-central1-a"
  node_count = var.node_count
  node_config {
    machine_type = "a2-highgpu-1g"
  }
}
`;

describe('what a variable file feeds', () => {
  it('a -var-file in a folder beside the module is read with the one module that declares its variables', async () => {
    const tree = (n: number) => ({ 'terraform/main.tf': POOL_MODULE, 'envs/prod.tfvars': `node_count = ${n}\nregion     = "x"\n` });
    expect(await review(tree(2), tree(4))).toEqual({ changes: [['gpu', 2, 4]], coverage: [['envs/prod.tfvars', 'read']] });
  });

  it('two modules that could take it: not followed, never read with a guess', async () => {
    const tree = (n: number) => ({
      'a/main.tf': POOL_MODULE,
      'b/main.tf': POOL_MODULE,
      'envs/prod.tfvars': `node_count = ${n}\nregion = "x"\n`,
    });
    const r = await review(tree(2), tree(4));
    expect(r.changes).toEqual([]);
    expect(r.coverage).toEqual([['envs/prod.tfvars', 'not-followed', 'tfvars-no-module envs/prod.tfvars node_count']]);
  });

  it('with no module found, a changed number is not followed whatever its key, a changed name is not', async () => {
    const module = POOL_MODULE.replace(/node_count/g, 'n');
    const tree = (n: number, region = 'x') => ({
      'a/main.tf': module,
      'b/main.tf': module,
      'envs/prod.tfvars': `n = ${n}\nregion = "${region}"\n`,
    });
    expect((await review(tree(2), tree(4))).coverage).toEqual([
      ['envs/prod.tfvars', 'not-followed', 'tfvars-no-module envs/prod.tfvars n'],
    ]);
    expect((await review(tree(2), tree(2, 'y'))).coverage).toEqual([['envs/prod.tfvars', 'not-capacity']]);
  });

  const REMOTE = `variable "gpu_nodes" {
  type    = number
  default = 2
}
variable "labels" {
  type    = map(string)
  default = {}
}
module "pool" {
  source     = "git::https://github.com/example/terraform-gke-pool.git?ref=v3"
  node_count = var.gpu_nodes
}
`;

  it('a variable default or tfvars value handed to a remote module is not followed, on the file that changed it', async () => {
    const base = { 'infra/main.tf': REMOTE };
    expect(await review(base, { 'infra/main.tf': REMOTE.replace('default = 2', 'default = 4') })).toEqual({
      changes: [],
      coverage: [['infra/main.tf', 'not-followed', 'remote-module module.pool node_count']],
    });
    const vars = (n: number) => ({ ...base, 'infra/terraform.tfvars': `gpu_nodes = ${n}\n` });
    expect(await review(vars(2), vars(6))).toEqual({
      changes: [],
      coverage: [['infra/terraform.tfvars', 'not-followed', 'remote-module module.pool node_count']],
    });
  });

  it('a value that reaches no module call, nor any pool, is read', async () => {
    const base = { 'infra/main.tf': REMOTE, 'infra/terraform.tfvars': 'labels = { team = "a" }\n' };
    const head = { ...base, 'infra/terraform.tfvars': 'labels = { team = "b" }\n' };
    expect(await review(base, head)).toEqual({ changes: [], coverage: [['infra/terraform.tfvars', 'read']] });
  });

  it('a module that creates no compute is no GPU business', async () => {
    const vpc = (cidr: string) => ({
      'infra/main.tf': `module "vpc" {\n  source = "terraform-aws-modules/vpc/aws"\n  cidr   = "${cidr}"\n}\n`,
    });
    expect(await review(vpc('10.0.0.0/16'), vpc('10.1.0.0/16'))).toEqual({ changes: [], coverage: [['infra/main.tf', 'read']] });
  });
});
