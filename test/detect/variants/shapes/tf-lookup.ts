import type { Rewrite } from '../rewrite.js';
import { mapTfNumbers } from './tf-numbers.js';

/** Each number of the pools read out of a map literal by `lookup`, which Terraform folds to the number. */
export const tfLookup: Rewrite = {
  id: 'tf-lookup',
  what: 'each Terraform number `lookup({ v = n }, "v", 0)`',
  apply: (sides) => mapTfNumbers(sides, (v) => `lookup({ v = ${v} }, "v", 0)`),
};
