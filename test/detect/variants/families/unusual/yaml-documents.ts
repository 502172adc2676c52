import { isMap, isPair, isScalar, visit } from 'yaml';
import type { Document, Pair, YAMLMap } from 'yaml';
import type { Rewrite } from '../../rewrite.js';
import { mapKubeFiles } from '../../shapes/kube-files.js';
import { changedFiles } from '../../variant-tree.js';
import { docText, mapPlainIntegers } from '../../yaml-text.js';

/**
 * Each whole number of a file's objects an alias (`*gj3`) of an anchor set in a ConfigMap document
 * before them. kubectl, Argo CD and Flux split a stream into documents and decode each alone
 * (go-yaml through sigs.k8s.io/yaml), so the alias names an anchor its document does not hold:
 * the object fails to decode and is not applied. What the review cannot read the way the applier
 * does is not followed; counting the earlier document's numbers would be a reading no applier makes.
 */
export const yamlCrossDocumentAlias: Rewrite = {
  id: 'yaml-cross-document-alias',
  what: 'every whole number of each changed file an alias of an anchor set in another document of the file',
  expect: 'not-followed',
  apply: (sides) => {
    // Only what the pull request changes: an unchanged file the applier refuses is not the review's to read.
    const changed = new Set(changedFiles(sides));
    const out = mapKubeFiles(sides, (_docs, path, text) => {
      if (!changed.has(path)) return null;
      const anchors: string[] = [];
      const aliased = mapPlainIntegers(text, (v, keys) => {
        if (keys[0] === 'metadata' || keys.length === 0) return null;
        anchors.push(`  n${anchors.length + 1}: &gj${anchors.length + 1} "${v}"\n`);
        return `*gj${anchors.length}`;
      });
      if (anchors.length === 0) return null;
      return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gj-anchors\ndata:\n${anchors.join('')}---\n${aliased}`;
    });
    // Both sides must hold the aliases: a side left plain would read as a change of its own.
    return out !== null &&
      changedFiles(out).every(
        (p) => !changed.has(p) || (out.base.files[p] ?? '').includes('*gj') === (out.head.files[p] ?? '').includes('*gj'),
      )
      ? out
      : null;
  },
};

/** Maps whose keys are names of resources, not fields: a twin key there is another resource. */
const RESOURCE_MAPS = new Set([
  'limits',
  'requests',
  'deserved',
  'capability',
  'resource',
  'capacity',
  'allocatable',
  'hard',
  'labels',
  'annotations',
  'data',
]);

/**
 * Each whole number of a field (`nominalQuota: 8`, `replicas: 2`) followed by a twin key spelt with
 * a capital first letter and another number (`NominalQuota: 105`). Kubernetes decodes field names
 * case-sensitively (its JSON decoder and the API server's pruning of custom resources), so the twin
 * is an unknown field: dropped, or refused by strict validation. The count is the field's own.
 */
export const yamlCaseTwinKeys: Rewrite = {
  id: 'yaml-case-twin-keys',
  what: 'every whole-number field followed by a twin key in another case with a larger number',
  apply: (sides) =>
    mapKubeFiles(sides, (docs: Document.Parsed[]) => {
      let twins = 0;
      for (const doc of docs) {
        const found: [YAMLMap, Pair, string, number][] = [];
        visit(doc, {
          Pair(_, pair, ancestors) {
            if (!isScalar(pair.key) || !isScalar(pair.value) || typeof pair.value.value !== 'number') return;
            const own = String(pair.key.value);
            if (!Number.isInteger(pair.value.value) || !/^[a-z][A-Za-z0-9]*$/.test(own)) return;
            const keys = ancestors.filter(isPair).map((p) => (isScalar(p.key) ? String(p.key.value) : ''));
            if (keys.length === 0 || keys[0] === 'metadata' || RESOURCE_MAPS.has(keys.at(-1) ?? '')) return;
            const map = ancestors.at(-1);
            if (isMap(map)) found.push([map, pair, `${own.charAt(0).toUpperCase()}${own.slice(1)}`, pair.value.value + 97]);
          },
        });
        for (const [map, pair, twin, value] of found) {
          if (map.has(twin)) continue;
          map.items.splice(map.items.indexOf(pair) + 1, 0, doc.createPair(twin, value));
          twins++;
        }
      }
      return twins === 0 ? null : docs.map((d) => `---\n${docText(d)}`).join('');
    }),
};

/**
 * Each whole number followed by a tab and a comment (`8\t# gpus`): go-yaml takes a tab as the
 * blank before a comment after a plain scalar (not after `key:`, where block context refuses it).
 */
export const yamlTabComments: Rewrite = {
  id: 'yaml-tab-comments',
  what: 'every whole number followed by a tab and a comment',
  apply: (sides) =>
    mapKubeFiles(sides, (_docs, _path, text) => mapPlainIntegers(text, (v, _keys, commented) => (commented ? null : `${v}\t# gj ${v}`))),
};
