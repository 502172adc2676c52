import { Document, isPair, isScalar, Scalar, visit, YAMLMap, YAMLSeq } from 'yaml';
import type { Pair } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { mapFiles } from '../variant-tree.js';
import { kubeDocuments } from '../yaml-text.js';

/** Keys whose values Kubernetes reads as quantities, and maps of them (`limits: {nvidia.com/gpu: 8}`). */
const QUANTITY_KEYS = new Set(['nominalQuota', 'borrowingLimit', 'lendingLimit']);
const QUANTITY_MAPS = new Set(['limits', 'requests', 'capacity']);

/**
 * Each file of Kubernetes objects as one `kind: List` whose first item is a ConfigMap holding
 * every whole-number quantity of the others, anchored (`q1: &q1 "8"`), each quantity an alias of
 * it in a later item (`nominalQuota: *q1`). go-yaml resolves an alias anywhere after its anchor
 * in the same document, so kubectl applies the same objects (and the ConfigMap beside them); a
 * reader that unwraps the List item by item, or resolves aliases per object, loses the numbers.
 */
export const yamlListAnchors: Rewrite = {
  id: 'yaml-list-anchors',
  what: 'every file of objects one `kind: List`, its quantities aliases of anchors in a ConfigMap item before them',
  apply: (sides) =>
    mapFiles(sides, (path, text) => {
      const docs = kubeDocuments(path, text);
      if (docs === null) return null;
      const list = new Document({ apiVersion: 'v1', kind: 'List' }, { version: '1.1' });
      const data = new YAMLMap();
      const shared = list.createNode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gj-shared-values' } }) as YAMLMap;
      shared.set('data', data);
      const items = new YAMLSeq();
      items.add(shared);
      let n = 0;
      for (const doc of docs) {
        visit(doc, {
          Pair(_, pair: Pair, ancestors) {
            if (!isScalar(pair.key) || !isScalar(pair.value)) return;
            const key = String(pair.key.value);
            const parent = ancestors.at(-2);
            const inMap = isPair(parent) && isScalar(parent.key) && QUANTITY_MAPS.has(String(parent.key.value));
            if (!QUANTITY_KEYS.has(key) && !inMap) return;
            const value = pair.value.value;
            if (typeof value !== 'number' && !(typeof value === 'string' && /^\d+$/.test(value))) return;
            n += 1;
            // A ConfigMap's data are strings; an alias of one is the string "8", which a quantity reads as 8.
            const anchored = new Scalar(String(value));
            anchored.type = Scalar.QUOTE_DOUBLE;
            data.set(`q${n}`, anchored);
            pair.value = list.createAlias(anchored, `q${n}`);
          },
        });
        items.add(doc.contents);
      }
      if (n === 0) return null;
      list.set('items', items);
      return { [path]: list.toString({ lineWidth: 0 }) };
    }),
};
