import type { Rewrite } from '../rewrite.js';
import { mapTfNumbers } from './tf-numbers.js';

/** Each number the true branch of a conditional whose condition is always true. */
export const tfTernary: Rewrite = {
  id: 'tf-ternary',
  what: 'each Terraform number `1 == 1 ? n : 0`',
  apply: (sides) => mapTfNumbers(sides, (v) => `1 == 1 ? ${v} : 0`),
};
