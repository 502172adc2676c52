import { describe, expect, it } from 'vitest';
import { detectChanges } from '../detect-changes.js';
import type { DetectedChanges } from '../detect-changes.js';
import type { ChangeSet, TreeReader } from '../../domain/index.js';
import { ownSource } from './module-source.js';

type Tree = Record<string, string>;
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const reader = (tree: Tree): TreeReader => ({
  label: 'side',
  read: (p) => Promise.resolve(tree[p] ?? null),
  list: (dir) => Promise.resolve(Object.keys(tree).filter((p) => dirOf(p) === dir)),
});
function pr(base: Tree, head: Tree, repositories?: string[]): Promise<DetectedChanges> {
  const changed = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((p) => base[p] !== head[p]);
  const set: ChangeSet = {
    base: reader(base),
    head: reader(head),
    changedPaths: () => Promise.resolve(changed),
    ...(repositories ? { repositories } : {}),
  };
  return detectChanges(set);
}

const MODULE: Tree = {
  'modules/gpu-pool/variables.tf': 'variable "max_nodes" {\n  type = number\n}\nvariable "name" {\n  type = string\n}\n',
  'modules/gpu-pool/main.tf': `resource "google_container_node_pool" "this" {
  name     = var.name
  location = "us-central1-a"
  autoscaling {
    max_node_count = var.max_nodes
  }
  node_config {
    machine_type = "a2-highgpu-2g"
  }
}
`,
};
const call = (source: string, max: number) => `module "gpu" {\n  source    = "${source}"\n  name      = "a100"\n  max_nodes = ${max}\n}\n`;
const REPO = 'github.com/acme/infra';

describe("modules of this repository called by the repository's own URL", () => {
  it.each([
    'github.com/acme/infra//modules/gpu-pool?ref=v1.2.0',
    'git::https://github.com/Acme/infra.git//modules/gpu-pool?ref=v1.2.0',
    'git@github.com:acme/infra.git//modules/gpu-pool',
    'git::ssh://git@github.com/acme/infra.git//modules/gpu-pool?ref=main',
  ])('%s is read from the tree', async (source) => {
    const base = { ...MODULE, 'live/prod/main.tf': call(source, 2) };
    const head = { ...MODULE, 'live/prod/main.tf': call(source, 6) };
    const r = await pr(base, head, [REPO]);
    expect(r.changes.map((c) => [c.file, c.name, c.gpusBefore, c.gpusAfter])).toEqual([['live/prod/main.tf', 'a100', 4, 12]]);
    expect(r.coverage).toEqual([{ file: 'live/prod/main.tf', state: 'read', objects: 1 }]);
  });

  it('without the repository named, such a call is a module not read, and its changed input is not followed', async () => {
    const source = 'github.com/acme/infra//modules/gpu-pool?ref=v1.2.0';
    const r = await pr({ ...MODULE, 'live/prod/main.tf': call(source, 2) }, { ...MODULE, 'live/prod/main.tf': call(source, 6) });
    expect(r.changes).toEqual([]);
    expect(r.coverage.map((c) => [c.state, c.notFollowed?.map((n) => [n.reason, n.subject, n.inputs])])).toEqual([
      ['not-followed', [['remote-module', 'module.gpu', ['max_nodes']]]],
    ]);
  });

  it('a new ref is not the tree read here: not followed', async () => {
    const at = (ref: string) => `github.com/acme/infra//modules/gpu-pool?ref=${ref}`;
    const r = await pr({ ...MODULE, 'live/prod/main.tf': call(at('v1'), 2) }, { ...MODULE, 'live/prod/main.tf': call(at('v2'), 2) }, [
      REPO,
    ]);
    expect(r.coverage.map((c) => [c.state, c.notFollowed?.map((n) => [n.reason, n.inputs])])).toEqual([
      ['not-followed', [['remote-module', ['source']]]],
    ]);
  });

  it('another repository of the same owner is not this one', () => {
    expect(ownSource('github.com/acme/infra-modules//gpu', [REPO])).toBeNull();
    expect(ownSource('github.com/acme/infra//../etc', [REPO])).toBeNull();
    expect(ownSource('github.com/acme/infra', [REPO])).toEqual({ dir: '', ref: null });
  });
});
