import type { Rewrite } from '../rewrite.js';
import { mapPlainIntegers } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';
import { isQuantity } from './quantities.js';

/**
 * Every quantity a block scalar (`nominalQuota: |-` and `8` on the next line): the string "8",
 * which a Quantity reads as 8. Lines with a comment are left, which would end in the scalar.
 */
export const yamlBlockScalar: Rewrite = {
  id: 'yaml-block-scalar',
  what: 'every quantity a `|-` block scalar on its own line',
  apply: (sides) =>
    mapKubeFiles(sides, (_docs, _path, text) =>
      // Deeper than any key of these files, a `- ` item's included: the scalar's indentation is its first line's.
      mapPlainIntegers(text, (v, keys, commented) => (!isQuantity(keys) || commented ? null : `|-\n${' '.repeat(48)}${v}`)),
    ),
};
