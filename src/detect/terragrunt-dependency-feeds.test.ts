import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from './detect-changes.js';
import { detectPr } from '../../test/detect/real-fixtures.js';
import { dependencyOutputsNotFed } from './terragrunt-dependency-feeds.js';

/**
 * A Terragrunt unit's inputs read from another unit's outputs (`dependency.x.outputs.y`) and
 * mock outputs: a change to what feeds them is judged where they land. One reaching a GPU pool
 * (counted or not) is not followed; one reaching only a CPU pool is no change.
 */

const CLUSTER = `variable "size" {
  type = number
}

output "big_nodes" {
  value = var.size * 2
}

output "web_nodes" {
  value = 3
}
`;
const POOLS = `variable "train_nodes" {
  type = number
}

variable "web_nodes" {
  type = number
}

resource "google_container_node_pool" "train" {
  name       = "train"
  cluster    = "c"
  node_count = var.train_nodes
  node_config {
    machine_type = "a2-highgpu-1g"
  }
}

resource "google_container_node_pool" "web" {
  name       = "web"
  cluster    = "c"
  node_count = var.web_nodes
  node_config {
    machine_type = "e2-standard-8"
  }
}
`;
const clusterUnit = (size: number) => `terraform {\n  source = "../../modules/cluster"\n}\n\ninputs = {\n  size = ${String(size)}\n}\n`;
const poolsUnit = (o: { bigMock?: number; webMock?: number; allowed?: string; source?: string; reads?: string } = {}) =>
  [
    'terraform {',
    `  source = "${o.source ?? '../../modules/pools'}"`,
    '}',
    '',
    'dependency "cluster" {',
    '  config_path = "../cluster"',
    '  mock_outputs = {',
    `    big_nodes = ${String(o.bigMock ?? 1)}`,
    `    web_nodes = ${String(o.webMock ?? 1)}`,
    '  }',
    ...(o.allowed === undefined ? [] : [`  mock_outputs_allowed_terraform_commands = ${o.allowed}`]),
    '}',
    '',
    'inputs = {',
    `  train_nodes = ${o.reads ?? 'dependency.cluster.outputs.big_nodes'}`,
    '  web_nodes   = dependency.cluster.outputs.web_nodes',
    '}',
    '',
  ].join('\n');

const tree = (over: Record<string, string> = {}): Record<string, string> => ({
  'modules/cluster/main.tf': CLUSTER,
  'modules/pools/main.tf': POOLS,
  'live/cluster/terragrunt.hcl': clusterUnit(2),
  'live/pools/terragrunt.hcl': poolsUnit(),
  ...over,
});
/** One side of a tree as the floor hands it to the feed, nothing read by a parser. */
const sidesOf = (files: Record<string, string>) => {
  const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  const side = {
    read: (p: string) => Promise.resolve(files[p] ?? null),
    list: (d: string) => Promise.resolve(Object.keys(files).filter((p) => dirOf(p) === d)),
    dirs: (d: string) =>
      Promise.resolve([
        ...new Set(
          Object.keys(files)
            .map(dirOf)
            .flatMap((x) => x.split('/').map((_, i, a) => a.slice(0, i + 1).join('/')))
            .filter((x) => x !== d && dirOf(x) === d),
        ),
      ]),
    side: new Map(),
    cache: new Map(),
  };
  return { base: side, head: side };
};
const notFollowed = (r: DetectedChanges) => r.coverage.filter((c) => c.state === 'not-followed');
const inputs = (r: DetectedChanges) => notFollowed(r).map((c) => [c.file, c.notFollowed?.[0]?.inputs?.[0]]);

describe('Terragrunt dependency outputs feeding a unit', () => {
  it('a changed input of the unit whose output sizes a GPU pool is not followed', async () => {
    const r = await detectPr(tree(), tree({ 'live/cluster/terragrunt.hcl': clusterUnit(4) }));
    expect(r.changes).toEqual([]);
    expect(inputs(r)).toEqual([['live/cluster/terragrunt.hcl', 'train_nodes']]);
  });

  it('a changed output of its module is not followed where it sizes a GPU pool, no change where a CPU one', async () => {
    const gpu = await detectPr(tree(), tree({ 'modules/cluster/main.tf': CLUSTER.replace('var.size * 2', 'var.size * 4') }));
    expect(inputs(gpu)).toEqual([['modules/cluster/main.tf', 'train_nodes']]);
    const cpu = await detectPr(tree(), tree({ 'modules/cluster/main.tf': CLUSTER.replace('value = 3', 'value = 5') }));
    expect(notFollowed(cpu)).toEqual([]);
  });

  it('the same through an output read whole or by index', async () => {
    for (const reads of ['dependency.cluster.outputs["big_nodes"]', 'lookup(dependency.cluster.outputs, "big_nodes")']) {
      const base = tree({ 'live/pools/terragrunt.hcl': poolsUnit({ reads }) });
      const r = await detectPr(base, { ...base, 'live/cluster/terragrunt.hcl': clusterUnit(4) });
      expect(inputs(r), reads).toEqual([['live/cluster/terragrunt.hcl', 'train_nodes']]);
    }
  });

  it('changed mock outputs: not followed where they reach an apply and a GPU pool, else no change', async () => {
    const r = await detectPr(tree(), tree({ 'live/pools/terragrunt.hcl': poolsUnit({ bigMock: 6 }) }));
    // The unit's own reading cannot count the pool from a dependency's output either.
    expect(notFollowed(r).map((c) => c.file)).toEqual(['live/pools/terragrunt.hcl']);
    const judged = async (before: string, after: string) =>
      (
        await dependencyOutputsNotFed('live/pools/terragrunt.hcl', { before, after }, sidesOf(tree({ 'live/pools/terragrunt.hcl': after })))
      ).map((n) => n.inputs?.[0]);
    expect(await judged(poolsUnit(), poolsUnit({ bigMock: 6 }))).toEqual(['train_nodes']);
    expect(await judged(poolsUnit(), poolsUnit({ webMock: 6 }))).toEqual([]);
    const plan = '["validate", "plan"]';
    expect(await judged(poolsUnit({ allowed: plan }), poolsUnit({ bigMock: 6, allowed: plan }))).toEqual([]);
    const apply = '["plan", "apply"]';
    expect(await judged(poolsUnit({ allowed: apply }), poolsUnit({ bigMock: 6, allowed: apply }))).toEqual(['train_nodes']);
  });

  it('a unit of a module not in this repository: its mock-fed input is not followed', async () => {
    const source = 'git::https://github.com/acme/modules.git//pools?ref=v1';
    const r = await detectPr(
      tree({ 'live/pools/terragrunt.hcl': poolsUnit({ source }) }),
      tree({ 'live/pools/terragrunt.hcl': poolsUnit({ source, webMock: 6 }) }),
    );
    expect(notFollowed(r).length).toBe(1);
  });
});
