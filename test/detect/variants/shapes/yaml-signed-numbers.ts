import type { Rewrite } from '../rewrite.js';
import { mapPlainIntegers } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/** Every whole number with a `+` sign, an integer in YAML 1.1 and 1.2 alike (go-yaml v2 and v3). */
export const yamlSignedNumbers: Rewrite = {
  id: 'yaml-signed-numbers',
  what: 'every whole number written `+8`',
  apply: (sides) =>
    mapKubeFiles(sides, (_docs, _path, text) => mapPlainIntegers(text, (v, keys) => (keys[0] === 'metadata' ? null : `+${v}`))),
};
