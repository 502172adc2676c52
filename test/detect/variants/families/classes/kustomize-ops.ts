import { isMap } from 'yaml';
import type { Tree } from '../../../real-fixtures.js';
import type { Rewrite } from '../../rewrite.js';
import { movable } from '../../rewrites-render.js';
import { baseName, dirOf, join } from '../../shapes/kube-files.js';
import type { VariantTree } from '../../variant-tree.js';
import { kubeDocuments } from '../../yaml-text.js';
import { json6902 } from '../kustomize.js';
import type { Op } from '../kustomize.js';

const scratch = (n: number) => `/gjScratch${n}`;
/** Where a value lands: a `replace` first removes what is there (an `add` at a list index would insert). */
const clear = (x: Op) => (x.op === 'replace' ? [`- op: remove\n  path: ${JSON.stringify(x.path)}`] : []);

/**
 * Each value set by JSON 6902 `move`: added at a scratch path of the object, the old value removed,
 * then moved to its place, so the scratch path is gone again (RFC 6902 §4.4).
 */
export const kustomizeJson6902Move = json6902(
  'kustomize-json6902-move',
  'the changed objects as JSON 6902 operations, each value `move`d from a scratch path',
  (x, value, n) =>
    x.op === 'remove'
      ? [`- op: remove\n  path: ${JSON.stringify(x.path)}`]
      : [
          `- op: add\n  path: ${scratch(n)}\n  value: ${JSON.stringify(value)}`,
          ...clear(x),
          `- op: move\n  from: ${scratch(n)}\n  path: ${JSON.stringify(x.path)}`,
        ],
);

/** Each value set by JSON 6902 `copy` from a scratch path, which is removed after (RFC 6902 §4.5). */
export const kustomizeJson6902Copy = json6902(
  'kustomize-json6902-copy',
  'the changed objects as JSON 6902 operations, each value `copy`d from a scratch path then removed',
  (x, value, n) =>
    x.op === 'remove'
      ? [`- op: remove\n  path: ${JSON.stringify(x.path)}`]
      : [
          `- op: add\n  path: ${scratch(n)}\n  value: ${JSON.stringify(value)}`,
          ...clear(x),
          `- op: copy\n  from: ${scratch(n)}\n  path: ${JSON.stringify(x.path)}`,
          `- op: remove\n  path: ${scratch(n)}`,
        ],
);

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

/**
 * The changed objects whole in strategic-merge patches that select their object by a `target`
 * (kind, name, namespace), each patch's own name `not-important`: with a target, kustomize
 * patches every object it selects and gives the patch that object's name, so the build is the
 * head's objects.
 */
export const kustomizePatchTarget: Rewrite = {
  id: 'kustomize-patch-target',
  what: 'the changed objects whole in kustomize patches selected by `target`, each patch named `not-important`',
  apply: (sides) => {
    const paths = movable(sides);
    if (paths.length === 0) return null;
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = { ...tree.files };
      const byDir = new Map<string, { resources: string[]; patches: string[] }>();
      for (const path of paths) {
        const dir = dirOf(path);
        const entry = byDir.get(dir) ?? { resources: [], patches: [] };
        byDir.set(dir, entry);
        entry.resources.push(baseName(path));
        files[path] = sides.base.files[path] ?? '';
        (kubeDocuments(path, tree.files[path] ?? '') ?? []).forEach((d, i) => {
          const kind: unknown = d.get('kind');
          const name: unknown = d.getIn(['metadata', 'name']);
          const namespace: unknown = d.getIn(['metadata', 'namespace']);
          d.setIn(['metadata', 'name'], 'not-important');
          d.commentBefore = null;
          const file = `gj-target-${baseName(path).replace(/\.ya?ml$/, '')}-${i + 1}.yaml`;
          files[join(dir, file)] = d.toString({ lineWidth: 0 });
          const ns = typeof namespace === 'string' ? `      namespace: ${JSON.stringify(namespace)}\n` : '';
          entry.patches.push(
            `  - path: ${file}\n    target:\n      kind: ${JSON.stringify(kind)}\n      name: ${JSON.stringify(name)}\n${ns}`,
          );
        });
      }
      for (const [dir, { resources, patches }] of byDir)
        files[join(dir, 'kustomization.yaml')] =
          `${KUSTOMIZATION}resources:\n${resources.map((r) => `  - ${r}\n`).join('')}patches:\n${patches.join('')}`;
      return { files, special: { ...tree.special } };
    };
    return { base: side(sides.base), head: side(sides.head) };
  },
};

/**
 * The changed objects whole in strategic-merge patches that select their object by a
 * `labelSelector` or an `annotationSelector` only (no kind, no name), each patch named
 * `not-important`; the base objects carry the label or annotation at both sides, which changes no GPU.
 */
const selectorTarget = (id: string, what: string, field: 'labels' | 'annotations'): Rewrite => ({
  id,
  what,
  apply: (sides) => {
    const paths = movable(sides);
    if (paths.length === 0) return null;
    const label = (path: string, i: number) => `${baseName(path).replace(/[^A-Za-z0-9]/g, '-')}-${i + 1}`;
    const selector = field === 'labels' ? 'labelSelector' : 'annotationSelector';
    const labelled = (path: string, text: string) =>
      (kubeDocuments(path, text) ?? [])
        .map((d, i) => {
          // A new map made from a plain object: `setIn` alone makes a YAML 1.1 document's new map an `!!omap`.
          const marks = d.getIn(['metadata', field], true);
          if (isMap(marks)) marks.set('gj-patch', label(path, i));
          else d.setIn(['metadata', field], d.createNode({ 'gj-patch': label(path, i) }));
          d.commentBefore = null;
          return `---\n${d.toString({ lineWidth: 0 }).replace(/^---\s*\n/, '')}`;
        })
        .join('');
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = { ...tree.files };
      const byDir = new Map<string, { resources: string[]; patches: string[] }>();
      for (const path of paths) {
        const dir = dirOf(path);
        const entry = byDir.get(dir) ?? { resources: [], patches: [] };
        byDir.set(dir, entry);
        entry.resources.push(baseName(path));
        files[path] = labelled(path, sides.base.files[path] ?? '');
        (kubeDocuments(path, tree.files[path] ?? '') ?? []).forEach((d, i) => {
          d.setIn(['metadata', 'name'], 'not-important');
          d.deleteIn(['metadata', 'namespace']);
          d.commentBefore = null;
          const file = `gj-${field === 'labels' ? 'label' : 'annotation'}-${baseName(path).replace(/\.ya?ml$/, '')}-${i + 1}.yaml`;
          files[join(dir, file)] = d.toString({ lineWidth: 0 });
          entry.patches.push(`  - path: ${file}\n    target:\n      ${selector}: ${JSON.stringify(`gj-patch=${label(path, i)}`)}\n`);
        });
      }
      for (const [dir, { resources, patches }] of byDir)
        files[join(dir, 'kustomization.yaml')] =
          `${KUSTOMIZATION}resources:\n${resources.map((r) => `  - ${r}\n`).join('')}patches:\n${patches.join('')}`;
      return { files, special: { ...tree.special } };
    };
    return { base: side(sides.base), head: side(sides.head) };
  },
});

export const kustomizeLabelTarget = selectorTarget(
  'kustomize-label-target',
  'the changed objects whole in kustomize patches selected by a `labelSelector` alone, the objects labelled',
  'labels',
);

export const kustomizeAnnotationTarget = selectorTarget(
  'kustomize-annotation-target',
  'the changed objects whole in kustomize patches selected by an `annotationSelector` alone, the objects annotated',
  'annotations',
);
