import type { Rewrite } from '../rewrite.js';
import { mapTfNumbers } from './tf-numbers.js';

/** Each number an attribute of two merged objects, the later one winning as `merge` has it. */
export const tfMerge: Rewrite = {
  id: 'tf-merge',
  what: 'each Terraform number `merge({ v = 0 }, { v = n }).v`',
  apply: (sides) => mapTfNumbers(sides, (v) => `merge({ v = 0 }, { v = ${v} }).v`),
};
