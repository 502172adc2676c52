import type { Rewrite } from '../rewrite.js';
import { mapTfNumbers } from '../shapes/tf-numbers.js';

const wrapper = (id: string, what: string, spell: (v: number) => string): Rewrite => ({
  id,
  what,
  apply: (sides) => mapTfNumbers(sides, (v) => spell(v)),
});

/**
 * Each whole number of the pools spelt by an expression Terraform folds to the same number before
 * it plans: a conversion, a one-element collection taken apart, a splat, an interpolation (a
 * string where a number is wanted is converted back), arithmetic that changes nothing.
 */
export const TF_WRAPPERS: readonly Rewrite[] = [
  wrapper('tf-tonumber', 'each Terraform number `tonumber("8")`', (v) => `tonumber("${v}")`),
  wrapper('tf-tostring', 'each Terraform number `tostring(8)`, converted back where a number is wanted', (v) => `tostring(${v})`),
  wrapper('tf-interpolated-number', 'each Terraform number `"${8}"`, converted back where a number is wanted', (v) => `"\${${v}}"`),
  wrapper('tf-one', 'each Terraform number `one([8])`', (v) => `one([${v}])`),
  wrapper('tf-element', 'each Terraform number `element([8], 0)`', (v) => `element([${v}], 0)`),
  wrapper('tf-index', 'each Terraform number `[8][0]`', (v) => `[${v}][0]`),
  wrapper('tf-splat', 'each Terraform number `one([{ v = 8 }][*].v)`', (v) => `one([{ v = ${v} }][*].v)`),
  wrapper('tf-max', 'each Terraform number `max(0, 8)`', (v) => `max(0, ${v})`),
  wrapper('tf-arithmetic', 'each Terraform number `8 * 1 + 0`', (v) => `${v} * 1 + 0`),
  wrapper('tf-jsondecode', 'each Terraform number `jsondecode("8")`', (v) => `jsondecode("${v}")`),
];
