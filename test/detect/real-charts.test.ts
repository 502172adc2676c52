import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import type { ChangeSet } from '../../src/domain/index.js';
import { REAL_ROOT } from './real-fixtures.js';
import { listingReader, type Tree } from './listing-tree.js';

/** A fixture folder with its subfolders (a chart and its templates), by repository path. */
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

function pr(base: Tree, edits: [file: string, from: string, to: string][]): ChangeSet {
  const head = { ...base };
  for (const [file, from, to] of edits) {
    const text = head[file];
    if (text === undefined || !text.includes(from)) throw new Error(`${file} has no ${from}`);
    head[file] = text.replace(from, to);
  }
  const paths = Object.keys(head).filter((p) => base[p] !== head[p]);
  return { base: listingReader('base', base), head: listingReader('head', head), changedPaths: () => Promise.resolve(paths) };
}

describe('real charts: values followed into their capacity templates', () => {
  const chart = 'helm/azure-aks-kueue';
  const tree = loadTree(chart);

  it('Azure AKS Kueue chart: nodes.count 2 → 4 feeds a quota computed in a range, which is said not followed', async () => {
    // The ClusterQueue quota is `mul (int $quota) (int $.Values.nodes.count)` inside a range over
    // nodes.perNodeResources: 2 nodes × 8 GPUs = 16 before, 32 after, but only a real render knows.
    const got = await detectChanges(pr(tree, [[`${chart}/values.yaml`, 'count: 2', 'count: 4']]));
    expect(got.changes).toEqual([]);
    expect(got.coverage.map((c) => [c.file, c.state, c.notFollowed?.map((n) => [n.reason, n.needs])])).toEqual([
      [`${chart}/values.yaml`, 'not-followed', [['helm-values', `${chart}/templates/clusterqueue.yaml`]]],
    ]);
  });

  it('Azure AKS Kueue chart: a new local queue name changes no capacity and is read', async () => {
    const got = await detectChanges(pr(tree, [[`${chart}/values.yaml`, 'name: "gpu-local-queue"', 'name: "team-a"']]));
    expect(got.changes).toEqual([]);
    expect(got.coverage).toEqual([{ file: `${chart}/values.yaml`, state: 'read', objects: 0 }]);
  });
});
