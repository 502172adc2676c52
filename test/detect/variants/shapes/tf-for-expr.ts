import type { Rewrite } from '../rewrite.js';
import { mapTfNumbers } from './tf-numbers.js';

/** Each number the one element of a `for` expression over a one-element list. */
export const tfForExpr: Rewrite = {
  id: 'tf-for-expr',
  what: 'each Terraform number `[for x in [n] : x][0]`',
  apply: (sides) => mapTfNumbers(sides, (v) => `[for x in [${v}] : x][0]`),
};
