import { isScalar, Scalar, visit } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/** Keys whose plain spelling go-yaml v2 reads as something else than their text (YAML 1.1 booleans, null). */
const NOT_TEXT = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;

/** Every key double-quoted (`"spec":`): the same string keys, but a merge key, which quoted would be a key. */
export const yamlQuotedKeys: Rewrite = {
  id: 'yaml-quoted-keys',
  what: 'every key double-quoted',
  apply: (sides) =>
    mapKubeFiles(sides, (docs) => {
      for (const doc of docs)
        visit(doc, {
          Pair(_, pair) {
            const key = pair.key;
            if (!isScalar(key) || typeof key.value !== 'string' || key.value === '<<' || NOT_TEXT.test(key.value)) return;
            key.type = Scalar.QUOTE_DOUBLE;
          },
        });
      return docs.map(docText).join('---\n');
    }),
};
