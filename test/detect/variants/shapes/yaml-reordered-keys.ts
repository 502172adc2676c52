import { isMap, isScalar, visit } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/** Every mapping's keys in reverse order (`kind` last): a mapping has no order. Those with a merge key, whose order counts, are left. */
export const yamlReorderedKeys: Rewrite = {
  id: 'yaml-reordered-keys',
  what: "every mapping's keys in reverse order",
  apply: (sides) =>
    mapKubeFiles(sides, (docs) => {
      for (const doc of docs)
        visit(doc, {
          Map(_, map) {
            if (!isMap(map) || map.items.some((p) => isScalar(p.key) && p.key.value === '<<')) return;
            map.items.reverse();
          },
        });
      return docs.map(docText).join('---\n');
    }),
};
