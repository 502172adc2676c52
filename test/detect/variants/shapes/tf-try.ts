import type { Rewrite } from '../rewrite.js';
import { mapTfNumbers } from './tf-numbers.js';

/** Each number as the first argument of `try`, which succeeds, so it is the value. */
export const tfTry: Rewrite = {
  id: 'tf-try',
  what: 'each Terraform number `try(n, 0)`',
  apply: (sides) => mapTfNumbers(sides, (v) => `try(${v}, 0)`),
};
