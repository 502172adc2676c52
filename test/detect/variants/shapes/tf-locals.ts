import type { Rewrite } from '../rewrite.js';
import { baseName } from './kube-files.js';
import { mapTfNumbers } from './tf-numbers.js';

/** A local's name unique in the module: the file's name and the number's place in it. */
const local = (path: string, n: number) => `gj_${baseName(path).replace(/\W/g, '_')}_${n}`;

/** Each number of the pools a local value, set in a `locals` block at the end of its file. */
export const tfLocals: Rewrite = {
  id: 'tf-locals',
  what: 'each Terraform number a `local.` value set in the same file',
  apply: (sides) =>
    mapTfNumbers(
      sides,
      (_v, n, path) => `local.${local(path, n)}`,
      (values, path) => `locals {\n${values.map((v, i) => `  ${local(path, i + 1)} = ${v}\n`).join('')}}\n`,
    ),
};
