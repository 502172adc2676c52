import type { Rewrite } from '../rewrite.js';
import { mapPlainIntegers } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';
import { isQuantity } from './quantities.js';

/** Every quantity written as a string, `"8"` for `8`: a Quantity reads both alike. */
export const yamlQuantityStrings: Rewrite = {
  id: 'yaml-quantity-strings',
  what: 'every quantity (quotas, limits) a quoted string `"8"`',
  apply: (sides) => mapKubeFiles(sides, (_docs, _path, text) => mapPlainIntegers(text, (v, keys) => (isQuantity(keys) ? `"${v}"` : null))),
};
