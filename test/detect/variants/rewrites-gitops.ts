import { isPair, isScalar, isSeq, Scalar, visit } from 'yaml';
import type { Tree } from '../real-fixtures.js';
import type { Rewrite } from './rewrite.js';
import { movable } from './rewrites-render.js';
import type { VariantTree } from './variant-tree.js';
import { isQuantity } from './shapes/quantities.js';
import { docText, kubeDocuments, mapPlainIntegers } from './yaml-text.js';

/*
 * The changed objects rendered from where a GitOps tool puts them together: a Helm chart whose
 * numbers an Argo CD Application sets from two value files, a file moved into a subfolder that
 * its kustomization names, quantities set by kustomize `replacements`.
 */

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const stem = (p: string) =>
  baseName(p)
    .replace(/\.ya?ml$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');

/**
 * The changed file a Helm chart's template whose numbers are values; the chart's own values.yaml
 * sets each to 0, and an Argo CD Application installs the chart from this repository with two
 * value files, the odd values in one and the even in the other, which Helm lays over the defaults:
 * the render is the file. The pull request changes the value files.
 */
export const helmTwoValueFiles: Rewrite = {
  id: 'helm-two-value-files',
  what: 'the changed file a chart, its numbers in two value files of an Argo CD Application',
  apply: (sides) => {
    const files = movable(sides);
    if (files.length === 0) return null;
    const side = (tree: VariantTree): VariantTree => {
      const add: Tree = {};
      const out = { ...tree.files };
      for (const path of files) {
        delete out[path];
        const chart = join(dirOf(path), `gj-chart-${stem(path)}`);
        const values: [string, number][] = [];
        const template = mapPlainIntegers(tree.files[path] ?? '', (v, keys) => {
          if (keys[0] === 'metadata') return null;
          values.push([`gj${values.length + 1}`, v]);
          return `{{ .Values.gj${values.length} }}`;
        });
        const part = (odd: boolean) =>
          values
            .filter((_, i) => i % 2 === (odd ? 0 : 1))
            .map(([k, v]) => `${k}: ${v}\n`)
            .join('');
        add[`${chart}/Chart.yaml`] = `apiVersion: v2\nname: gj-${stem(path)}\nversion: 0.1.0\n`;
        add[`${chart}/values.yaml`] = values.map(([k]) => `${k}: 0\n`).join('');
        add[`${chart}/values-gpu.yaml`] = part(true) || '{}\n';
        add[`${chart}/values-size.yaml`] = part(false) || '{}\n';
        add[`${chart}/templates/${baseName(path)}`] = template;
        add[join(dirOf(path), `gj-app-${stem(path)}.yaml`)] = [
          'apiVersion: argoproj.io/v1alpha1',
          'kind: Application',
          'metadata:',
          `  name: gj-${stem(path)}`,
          '  namespace: argocd',
          'spec:',
          '  project: default',
          '  destination:',
          '    server: https://kubernetes.default.svc',
          '  source:',
          '    repoURL: https://git.example.com/platform/gpu-clusters.git',
          '    targetRevision: main',
          `    path: ${chart}`,
          '    helm:',
          '      valueFiles:',
          '        - values-gpu.yaml',
          '        - values-size.yaml',
          '',
        ].join('\n');
      }
      return { files: { ...out, ...add }, special: { ...tree.special } };
    };
    return { base: side(sides.base), head: side(sides.head) };
  },
};

/**
 * The changed files of objects (in a folder with no kustomization or chart) moved into a subfolder
 * (`gj-moved/`), and a kustomization in their folder naming them there: kustomize builds the same
 * objects from it.
 */
export const kustomizeMoved: Rewrite = {
  id: 'kustomize-moved',
  what: 'the changed files of objects moved to a subfolder their kustomization names',
  apply: (sides) => {
    const files = movable(sides);
    if (files.length === 0) return null;
    const side = (tree: VariantTree): VariantTree => {
      const out = { ...tree.files };
      const byDir = new Map<string, string[]>();
      for (const path of files) {
        const text = out[path];
        delete out[path];
        if (text === undefined) continue;
        out[join(join(dirOf(path), 'gj-moved'), baseName(path))] = text;
        byDir.set(dirOf(path), [...(byDir.get(dirOf(path)) ?? []), baseName(path)]);
      }
      for (const [dir, names] of byDir)
        out[join(dir, 'kustomization.yaml')] =
          `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${names.map((n) => `  - gj-moved/${n}\n`).join('')}`;
      return { files: out, special: { ...tree.special } };
    };
    return { base: side(sides.base), head: side(sides.head) };
  },
};

/**
 * The changed files of objects held in two folders, each side's text in its own (`gj-argo-a/` the
 * base's, `gj-argo-b/` the head's, both at both sides), and an Argo CD Application applying the
 * folder of its side: the pull request only points the Application at the other folder, so what
 * the cluster gets is the case's own change.
 */
export const argoApplicationPath: Rewrite = {
  id: 'argo-application-path',
  what: "the changed files in two folders, an Argo CD Application's `path` moved from one to the other",
  apply: (sides) => {
    const files = movable(sides);
    if (files.length === 0) return null;
    const side = (tree: VariantTree, folder: string): VariantTree => {
      const out = { ...tree.files };
      const dirs = new Set<string>();
      for (const path of files) {
        delete out[path];
        dirs.add(dirOf(path));
        out[join(join(dirOf(path), 'gj-argo-a'), baseName(path))] = sides.base.files[path] ?? '';
        out[join(join(dirOf(path), 'gj-argo-b'), baseName(path))] = sides.head.files[path] ?? '';
      }
      for (const dir of dirs)
        out[join(dir, 'gj-argo-app.yaml')] = [
          'apiVersion: argoproj.io/v1alpha1',
          'kind: Application',
          'metadata:',
          `  name: gj-${stem(dir === '' ? 'root' : dir)}`,
          '  namespace: argocd',
          'spec:',
          '  project: default',
          '  destination:',
          '    server: https://kubernetes.default.svc',
          '  source:',
          '    repoURL: https://git.example.com/platform/gpu-clusters.git',
          '    targetRevision: main',
          `    path: ${join(dir, folder)}`,
          '',
        ].join('\n');
      return { files: out, special: { ...tree.special } };
    };
    return { base: side(sides.base, 'gj-argo-a'), head: side(sides.head, 'gj-argo-b') };
  },
};

/** A mapping key as a kustomize field path writes it: dots escaped, as its path splitter reads them. */
const segment = (key: string) => key.replace(/\./g, '\\.');

/**
 * Each quantity of the changed objects (`nominalQuota`, a `limits` entry) written `"0"` in the
 * object and set by a kustomize `replacement` from a ConfigMap of values (`data.gj3: "8"`, marked
 * local-config so kustomize does not emit it); the kustomization lists both. Kustomize copies the
 * string, which a quantity reads as the number: the build is the object. The pull request changes
 * the values.
 */
export const kustomizeReplacements: Rewrite = {
  id: 'kustomize-replacements',
  what: 'the quantities of the changed objects set by kustomize `replacements` from a ConfigMap',
  apply: (sides) => {
    const files = movable(sides);
    if (files.length === 0) return null;
    // An object, not a `let`: the closure sets it, which narrowing does not see.
    const seen = { touched: false };
    const side = (tree: VariantTree): VariantTree => {
      const out = { ...tree.files };
      for (const path of files) {
        const docs = kubeDocuments(path, out[path] ?? '') ?? [];
        const values: string[] = [];
        const replacements: string[] = [];
        for (const doc of docs) {
          const kind: unknown = doc.get('kind');
          const name: unknown = doc.getIn(['metadata', 'name']);
          if (typeof kind !== 'string' || typeof name !== 'string') continue;
          visit(doc, {
            Pair(_, pair, ancestors) {
              if (!isScalar(pair.value) || typeof pair.value.value !== 'number' || !isScalar(pair.key)) return;
              const keys: string[] = [];
              const fieldPath: string[] = [];
              ancestors.forEach((node, i) => {
                if (isPair(node) && isScalar(node.key)) {
                  keys.push(String(node.key.value));
                  fieldPath.push(segment(String(node.key.value)));
                }
                const next = ancestors[i + 1];
                if (isSeq(node) && next !== undefined) fieldPath.push(String(node.items.indexOf(next)));
              });
              const own = String(pair.key.value);
              if (!isQuantity([...keys, own])) return;
              const key = `gj${values.length + 1}`;
              values.push(`  ${key}: "${String(pair.value.value)}"\n`);
              replacements.push(
                `  - source:\n      kind: ConfigMap\n      name: gj-values\n      fieldPath: data.${key}\n    targets:\n      - select:\n          kind: ${kind}\n          name: ${name}\n        fieldPaths:\n          - ${[...fieldPath, segment(own)].join('.')}\n`,
              );
              pair.value = new Scalar('0');
              (pair.value as Scalar).type = Scalar.QUOTE_DOUBLE;
            },
          });
        }
        if (values.length === 0) continue;
        seen.touched = true;
        const dir = dirOf(path);
        out[path] = docs.map(docText).join('---\n');
        out[join(dir, 'gj-values.yaml')] =
          `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gj-values\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n${values.join('')}`;
        out[join(dir, 'kustomization.yaml')] =
          `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ${baseName(path)}\n  - gj-values.yaml\nreplacements:\n${replacements.join('')}`;
      }
      return { files: out, special: { ...tree.special } };
    };
    const out = { base: side(sides.base), head: side(sides.head) };
    return seen.touched ? out : null;
  },
};
