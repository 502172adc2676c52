import { isScalar, Scalar, visit } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/** Keys whose plain spelling go-yaml v2 reads as something else than their text (YAML 1.1 booleans, null). */
const NOT_TEXT = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;

const STYLES = [Scalar.QUOTE_SINGLE, Scalar.QUOTE_DOUBLE, Scalar.PLAIN] as const;

/** A key's text hashed (FNV-1a), so it gets one style wherever it is, at both sides. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Each key in a style drawn by its text (and the case): `'spec':`, `"spec":` or `spec:`, the same
 * string to go-yaml; a key has its style at both sides, as a file written so would. A merge key
 * stays plain (quoted it is a key named `<<`), and so do keys that plain are no strings in YAML
 * 1.1, whose quoting would change what they are.
 */
export const yamlMixedQuotedKeys: Rewrite = {
  id: 'yaml-mixed-quoted-keys',
  what: 'each key single-quoted, double-quoted or plain, drawn by its text',
  apply: (sides, _c, random) => {
    const salt = Math.floor(random() * STYLES.length);
    return mapKubeFiles(sides, (docs) => {
      for (const doc of docs)
        visit(doc, {
          Pair(_, pair) {
            const key = pair.key;
            if (!isScalar(key) || typeof key.value !== 'string' || key.value === '<<' || NOT_TEXT.test(key.value)) return;
            key.type = STYLES[(hash(key.value) + salt) % STYLES.length] ?? Scalar.PLAIN;
          },
        });
      return docs.map(docText).join('---\n');
    });
  },
};
