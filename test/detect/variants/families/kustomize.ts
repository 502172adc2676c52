import { parseAllDocuments } from 'yaml';
import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { movable } from '../rewrites-render.js';
import { baseName, dirOf, join } from '../shapes/kube-files.js';
import type { Sides, VariantTree } from '../variant-tree.js';
import { docText, kubeDocuments } from '../yaml-text.js';

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';
const list = (key: string, items: readonly string[]) => `${key}:\n${items.map((i) => `  - ${i}\n`).join('')}`;
const patchName = (path: string, i: number) => `gj-patch-${baseName(path).replace(/\.ya?ml$/, '')}-${i + 1}.yaml`;

/**
 * The changed files of objects (in folders with no kustomization or chart) kept as the base has
 * them, and a kustomization per folder (with files of its own) written by `make` from the folder,
 * the files' names and each file's head documents: the pull request changes what `make` writes.
 */
export function overBase(
  sides: Sides,
  make: (dir: string, names: string[], heads: Map<string, string[]>, side: 'base' | 'head') => Tree,
): Sides | null {
  const paths = movable(sides);
  if (paths.length === 0) return null;
  const side = (tree: VariantTree, name: 'base' | 'head'): VariantTree => {
    const files: Tree = { ...tree.files };
    const byDir = new Map<string, string[]>();
    const heads = new Map<string, string[]>();
    for (const path of paths) {
      files[path] = sides.base.files[path] ?? '';
      byDir.set(dirOf(path), [...(byDir.get(dirOf(path)) ?? []), baseName(path)]);
      heads.set(baseName(path), (kubeDocuments(path, tree.files[path] ?? '') ?? []).map(docText));
    }
    for (const [dir, names] of byDir) for (const [p, text] of Object.entries(make(dir, names, heads, name))) files[join(dir, p)] = text;
    return { files, special: { ...tree.special } };
  };
  return { base: side(sides.base, 'base'), head: side(sides.head, 'head') };
}

/** Each object's side whole, as patch files named after its file. */
export function patchFiles(names: readonly string[], heads: Map<string, string[]>): [string, string][] {
  return names.flatMap((n) => (heads.get(n) ?? []).map((doc, i): [string, string] => [patchName(n, i), doc]));
}

/** The deprecated `patchesStrategicMerge:` list, which kustomize still builds as it builds `patches:`. */
export const kustomizePsm: Rewrite = {
  id: 'kustomize-psm',
  what: 'the changed objects whole in `patchesStrategicMerge` over the base files',
  apply: (sides) =>
    overBase(sides, (_dir, names, heads) => {
      const patches = patchFiles(names, heads);
      return {
        ...Object.fromEntries(patches),
        'kustomization.yaml': `${KUSTOMIZATION}${list('resources', names)}${list(
          'patchesStrategicMerge',
          patches.map(([p]) => p),
        )}`,
      };
    }),
};

/** The patches in a kustomize Component (`gj-component/`) that the folder's kustomization includes. */
export const kustomizeComponent: Rewrite = {
  id: 'kustomize-component',
  what: 'the changed objects whole in patches of a kustomize Component the kustomization includes',
  apply: (sides) =>
    overBase(sides, (_dir, names, heads) => {
      const patches = patchFiles(names, heads);
      return {
        ...Object.fromEntries(patches.map(([p, t]) => [`gj-component/${p}`, t])),
        'gj-component/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n${patches
          .map(([p]) => `  - path: ${p}\n`)
          .join('')}`,
        'kustomization.yaml': `${KUSTOMIZATION}${list('resources', names)}${list('components', ['gj-component'])}`,
      };
    }),
};

/** A JSON pointer segment: `~` and `/` escaped (`nvidia.com~1gpu`). */
const pointer = (segments: readonly (string | number)[]) =>
  segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

export type Op = { op: 'replace' | 'add' | 'remove'; path: string; base: unknown; head: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON patch operations that take `a` (the base object) to `b` (the head's), each with both sides' values. */
function diff(a: unknown, b: unknown, at: (string | number)[] = [], out: Op[] = []): Op[] {
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in b)) out.push({ op: 'remove', path: pointer([...at, k]), base: a[k], head: undefined });
      else if (!(k in a)) out.push({ op: 'add', path: pointer([...at, k]), base: undefined, head: b[k] });
      else diff(a[k], b[k], [...at, k], out);
    }
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) a.forEach((x, i) => diff(x, b[i], [...at, i], out));
  else if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ op: 'replace', path: pointer(at), base: a, head: b });
  return out;
}

const goYaml = (text: string) =>
  parseAllDocuments(text, { version: '1.1', merge: true })
    .map((d) => d.toJS({ maxAliasCount: -1 }) as unknown)
    .filter(isObject);

/** One operation written as the YAML lines of JSON 6902 operations that do it; `n` numbers it in its patch. */
export type SpellOp = (op: Op, value: unknown, n: number) => string[];

const plainOp: SpellOp = (x, value) =>
  x.op === 'remove'
    ? [`- op: remove\n  path: ${JSON.stringify(x.path)}`]
    : [`- op: ${x.op}\n  path: ${JSON.stringify(x.path)}\n  value: ${JSON.stringify(value)}`];

/**
 * Each changed object of a file kept as the base has it and taken to the head's by JSON 6902
 * operations inline in the kustomization (`replace`, `add`, `remove` at JSON pointers, `/`
 * escaped as `~1`, each written by `spell`), led by a `test` of its name. At base the operations
 * set the base's values (and add nothing), so both sides build to the case's objects.
 */
export const json6902 = (id: string, what: string, spell: SpellOp): Rewrite => ({
  id,
  what,
  apply: (sides) => {
    const paths = movable(sides);
    const ops = new Map<string, { target: Record<string, unknown>; ops: Op[] }[]>();
    for (const path of paths) {
      const base = goYaml(sides.base.files[path] ?? '');
      const head = goYaml(sides.head.files[path] ?? '');
      const same = (x: Record<string, unknown>, y: Record<string, unknown>) =>
        x.kind === y.kind && x.apiVersion === y.apiVersion && JSON.stringify(x.metadata) === JSON.stringify(y.metadata);
      if (base.length !== head.length || base.some((b, i) => !same(b, head[i] ?? {}))) return null;
      ops.set(
        path,
        base.map((b, i) => {
          const [group, version] = String(b.apiVersion).includes('/') ? String(b.apiVersion).split('/') : ['', String(b.apiVersion)];
          const meta = isObject(b.metadata) ? b.metadata : {};
          const target = { group, version, kind: b.kind, name: meta.name, ...(meta.namespace ? { namespace: meta.namespace } : {}) };
          return { target, ops: diff(b, head[i]) };
        }),
      );
    }
    return overBase(sides, (dir, names, _heads, side) => {
      const patches = names.flatMap((n) =>
        (ops.get(join(dir, n)) ?? []).map(({ target, ops: o }) => {
          const lines = [
            `- op: test\n  path: /metadata/name\n  value: ${JSON.stringify(target.name)}`,
            ...o.flatMap((x, i) => (side === 'base' && x.op !== 'replace' ? [] : spell(x, side === 'base' ? x.base : x.head, i + 1))),
          ];
          return `  - target:\n${Object.entries(target)
            .map(([k, v]) => `      ${k}: ${JSON.stringify(v)}\n`)
            .join('')}    patch: |-\n${lines
            .join('\n')
            .split('\n')
            .map((l) => `      ${l}`)
            .join('\n')}\n`;
        }),
      );
      return { 'kustomization.yaml': `${KUSTOMIZATION}${list('resources', names)}patches:\n${patches.join('')}` };
    });
  },
});

export const kustomizeJson6902 = json6902('kustomize-json6902', 'the changed objects as JSON 6902 operations over the base files', plainOp);

/**
 * The changed files of objects moved two bases down (`gj-base/gj-inner/`), each folder's
 * kustomization naming the one below: kustomize builds the same objects through the nested bases.
 */
export const kustomizeNestedBases: Rewrite = {
  id: 'kustomize-nested-bases',
  what: 'the changed files of objects two kustomize bases down',
  apply: (sides) => {
    const paths = movable(sides);
    if (paths.length === 0) return null;
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = { ...tree.files };
      const byDir = new Map<string, string[]>();
      for (const path of paths) {
        const text = files[path];
        delete files[path];
        if (text === undefined) continue;
        files[join(dirOf(path), `gj-base/gj-inner/${baseName(path)}`)] = text;
        byDir.set(dirOf(path), [...(byDir.get(dirOf(path)) ?? []), baseName(path)]);
      }
      for (const [dir, names] of byDir) {
        files[join(dir, 'gj-base/gj-inner/kustomization.yaml')] = `${KUSTOMIZATION}${list('resources', names)}`;
        files[join(dir, 'gj-base/kustomization.yaml')] = `${KUSTOMIZATION}${list('resources', ['gj-inner'])}`;
        files[join(dir, 'kustomization.yaml')] = `${KUSTOMIZATION}${list('resources', ['gj-base'])}`;
      }
      return { files, special: { ...tree.special } };
    };
    return { base: side(sides.base), head: side(sides.head) };
  },
};
