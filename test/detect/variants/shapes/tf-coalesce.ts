import type { Rewrite } from '../rewrite.js';
import { mapTfNumbers } from './tf-numbers.js';

/** Each number behind a `null` in `coalesce`: the first argument that is not null is the number. */
export const tfCoalesce: Rewrite = {
  id: 'tf-coalesce',
  what: 'each Terraform number `coalesce(null, n)`',
  apply: (sides) => mapTfNumbers(sides, (v) => `coalesce(null, ${v})`),
};
