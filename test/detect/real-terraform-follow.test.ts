import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import type { ChangeSet } from '../../src/domain/index.js';
import { REAL_ROOT } from './real-fixtures.js';
import { listingReader, type Tree } from './listing-tree.js';

/** A fixture folder with its subfolders (a root module, its modules and variable files). */
function loadTree(target: string): Tree {
  const out: Tree = {};
  const walk = (rel: string) => {
    const full = path.join(REAL_ROOT, rel);
    if (statSync(full).isDirectory()) for (const name of readdirSync(full).sort()) walk(`${rel}/${name}`);
    else out[rel] = readFileSync(full, 'utf8');
  };
  walk(target);
  return out;
}

function pr(base: Tree, file: string, from: string, to: string): ChangeSet {
  const text = base[file];
  if (text === undefined || !text.includes(from)) throw new Error(`${file} has no ${from}`);
  const head = { ...base, [file]: text.replace(from, to) };
  return { base: listingReader('base', base), head: listingReader('head', head), changedPaths: () => Promise.resolve([file]) };
}

describe('ai-on-gke accelerator cluster: sample tfvars → root module → local module → fabric gke-nodepool', () => {
  const root = 'terraform-gke/ai-on-gke-accelerator-cluster';
  const tree = loadTree(root);
  const tfvars = `${root}/sample-tfvars/gpu-sample.tfvars`;

  it('one more L4 per node in the tfvars is followed down to the remote node pool module, which is not read: not followed, never a pass', async () => {
    const got = await detectChanges(pr(tree, tfvars, 'count = 1,', 'count = 2,'));
    expect(got.changes).toEqual([]);
    expect(got.coverage.map((c) => [c.file, c.state, c.notFollowed?.map((n) => [n.reason, n.subject, n.needs])])).toEqual([
      [
        tfvars,
        'not-followed',
        [
          [
            'remote-module',
            'module.cluster-nodepool',
            'git::https://github.com/GoogleCloudPlatform/cloud-foundation-fabric.git//modules/gke-nodepool?ref=v30.0.0&depth=1',
          ],
        ],
      ],
    ]);
  });

  it('a CSI driver switched on reaches the remote cluster module, whose defaults are not seen: not followed, naming the input', async () => {
    const got = await detectChanges(
      pr(tree, tfvars, 'enable_gcs_fuse_csi_driver            = false', 'enable_gcs_fuse_csi_driver            = true'),
    );
    expect(got.changes).toEqual([]);
    expect(got.coverage.map((c) => [c.file, c.state, c.notFollowed?.map((n) => [n.reason, n.subject, n.inputs])])).toEqual([
      [tfvars, 'not-followed', [['remote-module', 'module.cluster-standard', ['enable_addons']]]],
    ]);
  });
});
