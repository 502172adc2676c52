import { isMap, isScalar, parseAllDocuments, Scalar, visit, YAMLMap } from 'yaml';
import type { Document, Pair } from 'yaml';
import type { Rewrite } from './rewrite.js';
import { repointKustomizations } from './kustomize-references.js';
import { isKustomizationFile } from './shapes/kube-files.js';
import { mapFiles } from './variant-tree.js';
import { docText, kubeDocuments, mapPlainIntegers } from './yaml-text.js';

/*
 * YAML written another way that Kubernetes reads the same (through go-yaml, YAML 1.1): a List of
 * the objects, values behind aliases or merge keys, YAML 1.1 spellings of numbers, documents split
 * into files.
 */

/** `kind: List` with the file's objects as its items: kubectl, kustomize and Argo CD unwrap it. */
export const wrapInList: Rewrite = {
  id: 'yaml-list',
  what: 'every file of Kubernetes objects as one `kind: List`',
  apply: (sides) =>
    mapFiles(sides, (path, text) => {
      const docs = isKustomizationFile(path) ? null : kubeDocuments(path, text);
      if (docs === null) return null;
      const items = docs.map((d) =>
        docText(d)
          .replace(/\n+$/, '')
          .split('\n')
          .map((line, i) => (i === 0 ? `- ${line}` : line === '' ? '' : `  ${line}`))
          .join('\n'),
      );
      return { [path]: `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n` };
    }),
};

/** Keys whose values Kubernetes reads as quantities: a string "8" is 8. */
const QUANTITY_KEYS = new Set(['nominalQuota', 'borrowingLimit', 'lendingLimit']);

/**
 * Each quota (a Kueue quota, a Karpenter limit) as an alias of an anchored annotation value
 * (`nominalQuota: *q1`, `gpu-justify.test/q1: &q1 "8"`): the same quantity once aliases are
 * resolved, as go-yaml resolves them.
 */
export const quotaBehindAlias: Rewrite = {
  id: 'yaml-alias',
  what: 'each quota an alias of an anchored annotation',
  apply: (sides) =>
    mapFiles(sides, (path, text) => {
      const docs = kubeDocuments(path, text);
      if (docs === null) return null;
      let n = 0;
      for (const doc of docs) {
        const metadata = doc.get('metadata', true);
        if (!isMap(metadata)) continue;
        visit(doc, {
          Pair(_, pair: Pair, ancestors) {
            if (!isScalar(pair.key) || !isScalar(pair.value)) return;
            const key = String(pair.key.value);
            const parent = ancestors.at(-2);
            const inLimits = isPair(parent) && isScalar(parent.key) && parent.key.value === 'limits';
            if (!QUANTITY_KEYS.has(key) && !inLimits) return;
            const value = pair.value.value;
            if (typeof value !== 'number' && !(typeof value === 'string' && /^\d+$/.test(value))) return;
            n += 1;
            const anchored = new Scalar(String(value));
            anchored.type = Scalar.QUOTE_DOUBLE;
            anchored.anchor = `q${n}`;
            annotations(doc).set(`gpu-justify.test/q${n}`, anchored);
            pair.value = doc.createAlias(anchored, `q${n}`);
          },
        });
      }
      return n === 0 ? null : { [path]: docs.map(docText).join('---\n') };
    }),
};

function isPair(node: unknown): node is Pair {
  return typeof node === 'object' && node !== null && 'key' in node && 'value' in node;
}

function annotations(doc: Document.Parsed): YAMLMap {
  const metadata = doc.get('metadata', true) as YAMLMap;
  const found: unknown = metadata.get('annotations', true);
  if (isMap(found)) return found;
  const map = new YAMLMap();
  metadata.set('annotations', map);
  return map;
}

/** Every number of an object's spec moved into a merge key of its mapping (`<<: {maxSize: 8}`). */
export const numbersBehindMergeKey: Rewrite = {
  id: 'yaml-merge-key',
  what: 'numbers of each mapping moved into a `<<:` merge key',
  apply: (sides) =>
    mapFiles(sides, (path, text) => {
      const docs = kubeDocuments(path, text);
      if (docs === null) return null;
      let moved = 0;
      const made = new WeakSet<object>();
      for (const doc of docs) {
        const spec = doc.get('spec', true);
        if (!isMap(spec)) continue;
        visit(spec, {
          Map(_, map) {
            if (made.has(map)) return visit.SKIP;
            if (map.items.some((p) => isScalar(p.key) && p.key.value === '<<')) return undefined;
            const numbers = map.items.filter((p) => isScalar(p.value) && typeof p.value.value === 'number');
            if (numbers.length === 0) return undefined;
            const merged = new YAMLMap();
            made.add(merged);
            merged.flow = true;
            merged.items = numbers;
            map.items = [...map.items.filter((p) => !numbers.includes(p))];
            map.items.unshift(doc.createPair('<<', merged));
            moved += numbers.length;
            return undefined;
          },
        });
      }
      return moved === 0 ? null : { [path]: docs.map(docText).join('---\n') };
    }),
};

/**
 * Numbers spelt as YAML 1.1 reads them, which go-yaml (kubectl, Helm, Argo CD, Flux, eksctl) does:
 * `010` is 8, `0x8` is 8, `1_0` is 10.
 */
export const yaml11Numbers: Rewrite = {
  id: 'yaml-1.1-numbers',
  what: 'numbers as `0x..`, `0..` (octal) and `1_0`',
  apply: (sides, _c, random) => {
    const forms = new Map<number, string>();
    const spell = (v: number): string => {
      let out = forms.get(v);
      if (out === undefined) {
        const pick = Math.floor(random() * 3);
        out = pick === 0 ? `0x${v.toString(16)}` : pick === 1 || v < 10 ? `0${v.toString(8)}` : `${String(v)[0]}_${String(v).slice(1)}`;
        forms.set(v, out);
      }
      return out;
    };
    return mapFiles(sides, (path, text) => {
      const isEksctl = /apiVersion:\s*eksctl\.io\//.test(text);
      if (kubeDocuments(path, text) === null && !isEksctl) return null;
      const out = mapPlainIntegers(text, (v, keys) => (keys[0] === 'metadata' || v === 0 ? null : spell(v)));
      return out === text ? null : { [path]: out };
    });
  },
};

/** Each document of a multi-document file in a file of its own, beside it. */
export const splitDocuments: Rewrite = {
  id: 'split-documents',
  what: 'each document of a multi-document file in its own file',
  apply: (sides) => {
    const parts = new Map<string, string[]>();
    const out = mapFiles(sides, (path, text) => {
      if (!/\.ya?ml$/.test(path) || text.includes('{{')) return null;
      const docs = parseAllDocuments(text, { version: '1.1' });
      if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return null;
      const objects = docs.filter((d) => d.contents !== null);
      if (objects.length < 2) return null;
      const stem = path.replace(/\.ya?ml$/, '');
      const split = Object.fromEntries(objects.map((d, i) => [`${stem}-part${i + 1}.yaml`, docText(d)]));
      parts.set(path, Object.keys(split));
      return split;
    });
    if (out === null) return null;
    // The kustomizations that list a split file list its parts, as its author would write them.
    let { base, head } = out;
    for (const [from, to] of parts) {
      base = repointKustomizations(base, from, to);
      head = repointKustomizations(head, from, to);
    }
    return { base, head };
  },
};
