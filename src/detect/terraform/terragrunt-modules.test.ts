import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

const MODULE = `variable "max_nodes" {}
variable "machine" {
  default = "a2-highgpu-1g"
}
resource "google_container_node_pool" "gpu" {
  name     = "gpu"
  location = "us-central1-a"
  autoscaling {
    max_node_count = var.max_nodes
  }
  node_config {
    machine_type = var.machine
  }
}
`;
const POOL = 'modules/pool/main.tf';
const ENV = (n: number) => `locals {\n  nodes = ${n}\n}\n`;
const unit = (source: string, inputs = 'max_nodes = 2') => `terraform {\n  source = "${source}"\n}\n\ninputs = {\n  ${inputs}\n}\n`;

async function review(base: Tree, head: Tree) {
  const r = await detectPr(base, head);
  return {
    changes: r.changes.map((c) => [c.file, c.name, c.gpusBefore, c.gpusAfter]),
    coverage: r.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => `${n.reason}: ${n.subject}`)]),
  };
}

describe('Terragrunt units whose module is in this repository', () => {
  it.each([
    ['a path from the unit', '../../modules/pool'],
    ['a path with a double slash', '../../modules//pool'],
    ['get_repo_root()', '${get_repo_root()}/modules/pool'],
    ['get_terragrunt_dir()', '${get_terragrunt_dir()}/../../modules/pool'],
    ['get_path_to_repo_root()', '${get_path_to_repo_root()}/modules/pool'],
  ])('are read through the module: %s', async (_, source) => {
    const base = { 'live/prod/terragrunt.hcl': unit(source), [POOL]: MODULE };
    expect(await review(base, { ...base, 'live/prod/terragrunt.hcl': unit(source, 'max_nodes = 5') })).toEqual({
      changes: [['live/prod/terragrunt.hcl', 'gpu', 2, 5]],
      coverage: [['live/prod/terragrunt.hcl', 'read']],
    });
  });

  it('a unit and its module changed together are counted once, through the unit', async () => {
    const base = { 'live/prod/terragrunt.hcl': unit('../../modules/pool'), [POOL]: MODULE };
    const head = {
      'live/prod/terragrunt.hcl': unit('../../modules/pool', 'max_nodes = 3'),
      [POOL]: MODULE.replace('a2-highgpu-1g', 'a2-highgpu-2g'),
    };
    expect((await review(base, head)).changes).toEqual([['live/prod/terragrunt.hcl', 'gpu', 2, 6]]);
  });

  it('a module that is not in the tree leaves the changed inputs not followed', async () => {
    const base = { 'live/prod/terragrunt.hcl': unit('../../modules/pool') };
    expect(await review(base, { 'live/prod/terragrunt.hcl': unit('../../modules/pool', 'max_nodes = 5') })).toEqual({
      changes: [],
      coverage: [['live/prod/terragrunt.hcl', 'not-followed', 'local-module: module.terragrunt']],
    });
  });

  it('a remote module behind a changed parent leaves the parent not followed, though its inputs name no GPU', async () => {
    const root = (n: number) => `inputs = {\n  max_nodes = ${n}\n}\n`;
    const child = `include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n\nterraform {\n  source = "git::https://example.com/pools.git//gpu?ref=v1"\n}\n`;
    const base = { 'live/root.hcl': root(2), 'live/prod/terragrunt.hcl': child };
    expect(await review(base, { ...base, 'live/root.hcl': root(4) })).toEqual({
      changes: [],
      coverage: [['live/root.hcl', 'not-followed', 'remote-module: module.terragrunt']],
    });
  });
});

describe('what a parent reads for its units', () => {
  const child = (source = '../../../modules/pool') =>
    `include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n\nterraform {\n  source = "${source}"\n}\n`;
  const root = (path: string) =>
    `locals {\n  env = read_terragrunt_config(${path})\n}\n\ninputs = {\n  max_nodes = local.env.locals.nodes\n}\n`;

  it.each([
    ['find_in_parent_folders()', 'find_in_parent_folders("env.hcl")'],
    ['get_terragrunt_dir()', '"${get_terragrunt_dir()}/../env.hcl"'],
    ['path_relative_to_include()', '"${get_parent_terragrunt_dir()}/${path_relative_to_include()}/../env.hcl"'],
    ['path_relative_from_include()', '"${get_terragrunt_dir()}/${path_relative_from_include()}/prod/env.hcl"'],
  ])('an env file read with %s is followed into the unit', async (_, path) => {
    const base = { 'live/root.hcl': root(path), 'live/prod/env.hcl': ENV(2), 'live/prod/gpu/terragrunt.hcl': child(), [POOL]: MODULE };
    expect(await review(base, { ...base, 'live/prod/env.hcl': ENV(5) })).toEqual({
      changes: [['live/prod/gpu/terragrunt.hcl', 'gpu', 2, 5]],
      coverage: [['live/prod/env.hcl', 'read']],
    });
  });

  it('a common file named through dirname(find_in_parent_folders()) hands its module and inputs to the unit', async () => {
    const unitText = `include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n\ninclude "gpu" {\n  path = "\${dirname(find_in_parent_folders("root.hcl"))}/_envcommon/gpu.hcl"\n}\n`;
    const common = (n: number) =>
      `locals {\n  base = "\${get_repo_root()}/modules"\n}\n\nterraform {\n  source = "\${local.base}/pool"\n}\n\ninputs = {\n  max_nodes = ${n}\n}\n`;
    const base = { 'live/root.hcl': '', 'live/_envcommon/gpu.hcl': common(2), 'live/prod/gpu/terragrunt.hcl': unitText, [POOL]: MODULE };
    expect(await review(base, { ...base, 'live/_envcommon/gpu.hcl': common(6) })).toEqual({
      changes: [['live/prod/gpu/terragrunt.hcl', 'gpu', 2, 6]],
      coverage: [['live/_envcommon/gpu.hcl', 'read']],
    });
  });
});

describe("a parent's module source written with Terragrunt's path functions", () => {
  // The parent is live/root.hcl; the unit live/<env>/gpu/terragrunt.hcl; the module modules/pool.
  const SOURCES: [string, string][] = [
    ['get_repo_root()', '${get_repo_root()}/modules/pool'],
    ['get_parent_terragrunt_dir()', '${get_parent_terragrunt_dir()}/../modules/pool'],
    ['get_terragrunt_dir() and path_relative_from_include()', '${get_terragrunt_dir()}/${path_relative_from_include()}/../modules/pool'],
    ['get_terragrunt_dir() alone', '${get_terragrunt_dir()}/../../../modules/pool'],
  ];
  const parent = (source: string, n: number) => `terraform {\n  source = "${source}"\n}\n\ninputs = {\n  max_nodes = ${n}\n}\n`;
  const child = (inputs: string) =>
    `include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n${inputs === '' ? '' : `\ninputs = {\n  ${inputs}\n}\n`}`;
  for (const [what, source] of SOURCES)
    for (const env of ['prod', 'staging'])
      for (const [change, base, head, gpus] of [
        ['the parent inputs', [2, ''], [5, ''], [2, 5]],
        ['the unit inputs, over the parent', [2, 'max_nodes = 3'], [2, 'max_nodes = 4'], [3, 4]],
      ] as const)
        it(`${what}, unit ${env}: a change to ${change} reaches the module`, async () => {
          const unitPath = `live/${env}/gpu/terragrunt.hcl`;
          const tree = (t: readonly [number, string]): Tree => ({
            'live/root.hcl': parent(source, t[0]),
            [unitPath]: child(t[1]),
            [POOL]: MODULE,
          });
          const got = await review(tree(base), tree(head));
          expect(got.changes).toEqual([[unitPath, 'gpu', gpus[0], gpus[1]]]);
          expect(got.coverage.every((c) => c[1] === 'read')).toBe(true);
        });
});
