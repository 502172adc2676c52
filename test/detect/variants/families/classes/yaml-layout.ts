import { isMap, isPair, isScalar, parseAllDocuments, visit } from 'yaml';
import type { Document } from 'yaml';
import type { Rewrite } from '../../rewrite.js';
import { mapKubeFiles, mapKubeStreams } from '../../shapes/kube-files.js';
import { isQuantity } from '../../shapes/quantities.js';
import { docText, mapPlainIntegers } from '../../yaml-text.js';

/**
 * Each whole number on the line below its key, a comment between them (`nominalQuota: # …` then
 * `  8`): YAML reads a plain scalar on a more indented line as the key's value.
 */
export const yamlCommentBeforeValue: Rewrite = {
  id: 'yaml-comment-before-value',
  what: 'every whole number on the line below its key, a comment between',
  apply: (sides) =>
    mapKubeFiles(sides, (_docs, _path, text) =>
      mapPlainIntegers(text, (v, keys, commented, column) =>
        commented || keys.length === 0 ? null : `# set below\n${' '.repeat(column + 2)}${v}`,
      ),
    ),
};

/**
 * Every file's documents as JSON texts between `---` markers, in the same `.yaml` file: JSON is
 * YAML, so kubectl reads the same objects (merge keys and YAML 1.1 numbers resolved first).
 */
export const yamlJsonDocuments: Rewrite = {
  id: 'yaml-json-documents',
  what: 'every document of a YAML file written as JSON, the file still `.yaml`',
  apply: (sides) =>
    mapKubeFiles(sides, (_docs, _path, text) =>
      parseAllDocuments(text, { version: '1.1', merge: true })
        .filter((d) => d.contents !== null)
        .map((d) => `---\n${JSON.stringify(d.toJS({ maxAliasCount: -1 }), null, 2)}\n`)
        .join(''),
    ),
};

const EXTRA = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gj-before-list\ndata:\n  note: objects follow in a List\n';

/**
 * The last document of every file wrapped in a `kind: List`, after the other documents (a small
 * ConfigMap first where the file has one document): kubectl unwraps a List wherever it stands.
 */
export const yamlListLast: Rewrite = {
  id: 'yaml-list-last',
  what: 'the last document of each file in a `kind: List` after the others',
  apply: (sides) =>
    mapKubeStreams(sides, (docs) => {
      const texts = docs.map(docText);
      const last = texts.pop() ?? '';
      const item = last
        .trimEnd()
        .split('\n')
        .map((l, i) => (i === 0 ? `  - ${l}` : l === '' ? l : `    ${l}`))
        .join('\n');
      const before = texts.length > 0 ? texts : [EXTRA];
      return `${before.map((t) => `---\n${t}`).join('')}---\napiVersion: v1\nkind: List\nitems:\n${item}\n`;
    }),
};

/** Every document re-indented four spaces deep, list items flush with their key (`key:\n- a`). */
export const yamlWideIndent: Rewrite = {
  id: 'yaml-wide-indent',
  what: 'every document indented by four, lists flush with their key',
  apply: (sides) =>
    mapKubeFiles(sides, (docs) =>
      docs
        .map((d) => {
          d.commentBefore = null;
          return `---\n${d.toString({ indent: 4, indentSeq: false, lineWidth: 0 }).replace(/^---\s*\n/, '')}`;
        })
        .join(''),
    ),
};

/** An extended resource (`nvidia.com/gpu`): Kubernetes sets its request to its limit, and allows no other. */
const extended = (key: unknown) => typeof key === 'string' && key.includes('/') && !key.startsWith('kubernetes.io/');

/**
 * Each container's requests of extended resources dropped where its limits set the same amount:
 * the API server defaults a missing request to the limit, so the pod asks for the same devices.
 */
export const yamlLimitsOnly: Rewrite = {
  id: 'yaml-limits-only',
  what: 'each extended resource (`nvidia.com/gpu`) a container requests set only in its limits',
  apply: (sides) =>
    mapKubeFiles(sides, (docs: Document.Parsed[]) => {
      let dropped = 0;
      for (const doc of docs)
        visit(doc, {
          Pair(_, pair) {
            if (!isScalar(pair.key) || pair.key.value !== 'resources' || !isMap(pair.value)) return;
            const limits = pair.value.get('limits');
            const requests = pair.value.get('requests');
            if (!isMap(limits) || !isMap(requests)) return;
            for (const p of [...requests.items]) {
              if (!isPair(p) || !isScalar(p.key) || !extended(p.key.value)) continue;
              const limit = limits.get(p.key.value, true);
              if (!isScalar(limit) || !isScalar(p.value) || JSON.stringify(limit.value) !== JSON.stringify(p.value.value)) continue;
              requests.delete(p.key);
              dropped++;
            }
            if (requests.items.length === 0) pair.value.delete('requests');
          },
        });
      return dropped === 0 ? null : docs.map((d) => `---\n${docText(d)}`).join('');
    }),
};

const quantity = (id: string, what: string, spell: (v: number) => string): Rewrite => ({
  id,
  what,
  apply: (sides) => mapKubeFiles(sides, (_docs, _path, text) => mapPlainIntegers(text, (v, keys) => (isQuantity(keys) ? spell(v) : null))),
});

/** Every quantity with a decimal SI suffix that `resource.Quantity` scales back to the same amount. */
export const YAML_SUFFIXES: readonly Rewrite[] = [
  quantity('yaml-quantity-micro', 'every quantity in millionths, `"8000000u"`', (v) => `"${v * 1_000_000}u"`),
  quantity('yaml-quantity-kilo', 'every quantity in thousands, `"0.008k"`', (v) => `"${String(v / 1000)}k"`),
];
