import type { Rewrite } from '../rewrite.js';
import { mapPlainIntegers } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/** Every whole number of an object's spec tagged `!!int`, which go-yaml reads as the same integer. */
export const yamlIntTag: Rewrite = {
  id: 'yaml-int-tag',
  what: 'every whole number tagged `!!int 8`',
  apply: (sides) =>
    mapKubeFiles(sides, (_docs, _path, text) => mapPlainIntegers(text, (v, keys) => (keys[0] === 'metadata' ? null : `!!int ${v}`))),
};
