import type { Rewrite } from '../rewrite.js';
import { mapKubeFiles } from '../shapes/kube-files.js';
import { isQuantity } from '../shapes/quantities.js';
import { mapPlainIntegers } from '../yaml-text.js';

const quantity = (id: string, what: string, spell: (v: number) => string): Rewrite => ({
  id,
  what,
  apply: (sides) => mapKubeFiles(sides, (_docs, _path, text) => mapPlainIntegers(text, (v, keys) => (isQuantity(keys) ? spell(v) : null))),
});

/**
 * Every quantity (a quota, a limit, a request) in another spelling that `resource.Quantity` parses
 * to the same amount: a decimal (`8.0`, which go-yaml reads as the float 8 and JSON carries as 8),
 * thousandths (`"8000m"`) and a decimal exponent (`"8e0"`).
 */
export const YAML_QUANTITIES: readonly Rewrite[] = [
  quantity('yaml-quantity-decimal', 'every quantity a decimal `8.0`', (v) => `${v}.0`),
  quantity('yaml-quantity-milli', 'every quantity in thousandths, `"8000m"`', (v) => `"${v * 1000}m"`),
  quantity('yaml-quantity-exponent', 'every quantity with a decimal exponent, `"8e0"`', (v) => `"${v}e0"`),
];
