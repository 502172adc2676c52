import { isMap, isScalar, isSeq, parseAllDocuments, Scalar, YAMLSeq } from 'yaml';
import type { Document, YAMLMap } from 'yaml';
import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { dirOf, freeKubeFiles, join, mapKubeFiles } from '../shapes/kube-files.js';
import type { Sides, VariantTree } from '../variant-tree.js';
import { docText, kubeDocuments } from '../yaml-text.js';

const isClusterQueue = (d: Document.Parsed) => d.get('kind') === 'ClusterQueue' && String(d.get('apiVersion')).startsWith('kueue.');

/** The resource groups of a ClusterQueue document, as YAML sequences' items. */
function groups(d: Document.Parsed): YAMLMap[] {
  const g: unknown = d.getIn(['spec', 'resourceGroups']);
  return isSeq(g) ? g.items.filter(isMap) : [];
}

/**
 * In every ClusterQueue, each resource group's `coveredResources` and each of its flavors'
 * `resources` in reverse order: Kueue requires the two in the same order, and their order sets
 * nothing else, so the quotas are the same.
 */
export const kueueCoveredReordered: Rewrite = {
  id: 'kueue-covered-reordered',
  what: "a ClusterQueue's `coveredResources` and each flavor's resources reversed alike",
  apply: (sides) =>
    mapKubeFiles(sides, (docs) => {
      let n = 0;
      for (const d of docs.filter(isClusterQueue))
        for (const g of groups(d)) {
          const covered = g.get('coveredResources');
          const flavors = g.get('flavors');
          if (!isSeq(covered) || covered.items.length < 2 || !isSeq(flavors)) continue;
          covered.items.reverse();
          for (const f of flavors.items) {
            const res = isMap(f) ? f.get('resources') : null;
            if (isSeq(res)) res.items.reverse();
          }
          n++;
        }
      return n === 0 ? null : docs.map(docText).join('---\n');
    }),
};

/** Half of a whole quota, the larger half for the first flavor; a quota that is no whole number stays whole in the first, 0 in the second. */
function half(node: unknown, first: boolean): Scalar {
  const raw = isScalar(node) ? node.value : null;
  const whole = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : null;
  if (whole === null || !Number.isInteger(whole)) return new Scalar(first ? raw : 0);
  const part = first ? Math.ceil(whole / 2) : Math.floor(whole / 2);
  const out = new Scalar(typeof raw === 'string' ? String(part) : part);
  if (typeof raw === 'string') out.type = Scalar.QUOTE_DOUBLE;
  return out;
}

/**
 * Each flavor of the changed files' ClusterQueues split into two, the flavor and a copy `<name>-gj`
 * (a ResourceFlavor of its own, the original's spec copied when the tree has it), each whole quota
 * halved between them: the queue admits the same total of every resource.
 */
export const kueueFlavorsSplit: Rewrite = {
  id: 'kueue-flavors-split',
  what: "each ClusterQueue flavor split in two flavors whose quotas add up to the flavor's",
  apply: (sides: Sides) => {
    const paths = freeKubeFiles(sides);
    const seen = { touched: false };
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = { ...tree.files };
      for (const path of paths) {
        const docs = kubeDocuments(path, tree.files[path] ?? '');
        if (docs === null) continue;
        const copied = new Set<string>();
        for (const d of docs.filter(isClusterQueue))
          for (const g of groups(d)) {
            const flavors = g.get('flavors');
            if (!isSeq(flavors)) continue;
            const items = [...flavors.items];
            const out = new YAMLSeq();
            for (const f of items) {
              if (!isMap(f) || typeof f.get('name') !== 'string') {
                out.items.push(f);
                continue;
              }
              const name = String(f.get('name'));
              const copy = f.clone() as YAMLMap;
              copy.set('name', `${name}-gj`);
              for (const [flavor, first] of [
                [f, true],
                [copy, false],
              ] as const) {
                const res = flavor.get('resources');
                if (!isSeq(res)) continue;
                for (const r of res.items)
                  if (isMap(r))
                    for (const key of ['nominalQuota', 'borrowingLimit', 'lendingLimit'])
                      if (r.has(key)) r.set(key, half(r.get(key, true), first));
              }
              out.items.push(f, copy);
              copied.add(name);
              seen.touched = true;
            }
            g.set('flavors', out);
          }
        if (copied.size === 0) continue;
        files[path] = docs.map(docText).join('---\n');
        files[join(dirOf(path), `gj-flavors-${path.replace(/\W/g, '-')}.yaml`)] = [...copied]
          .map((name) => flavorCopy(tree.files, name))
          .join('---\n');
      }
      return { files, special: { ...tree.special } };
    };
    const out = { base: side(sides.base), head: side(sides.head) };
    return seen.touched ? out : null;
  },
};

/** A ResourceFlavor `<name>-gj` with the spec of the tree's ResourceFlavor `name`, or none. */
function flavorCopy(files: Tree, name: string): string {
  for (const [path, text] of Object.entries(files)) {
    if (!/\.ya?ml$/.test(path) || !text.includes('ResourceFlavor')) continue;
    for (const d of parseAllDocuments(text, { version: '1.1' })) {
      if (d.errors.length > 0 || d.get('kind') !== 'ResourceFlavor' || d.getIn(['metadata', 'name']) !== name) continue;
      d.setIn(['metadata', 'name'], `${name}-gj`);
      d.commentBefore = null;
      return d.toString({ lineWidth: 0 }).replace(/^---\s*\n/, '');
    }
  }
  return `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: ${name}-gj\n`;
}
