import type { Rewrite } from '../../rewrite.js';
import { baseName, dirOf, join } from '../../shapes/kube-files.js';
import { mapTfNumbers, spellTfNumbers } from '../../shapes/tf-numbers.js';
import { mapFiles } from '../../variant-tree.js';

/** A name for Terraform identifiers and files drawn from a file's path, so files of one folder do not collide. */
const slug = (path: string) =>
  baseName(path)
    .replace(/\.tf$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_');

/**
 * Each number of the pools read from a data file beside the module (`gj_<file>.yaml`/`.json`)
 * through `yamldecode(file("${path.module}/…")).nN`: Terraform reads the file when it plans. The
 * pull request changes the data file, the `.tf` file stays as the base has it.
 */
const decodedFile = (id: string, what: string, ext: 'yaml' | 'json'): Rewrite => ({
  id,
  what,
  apply: (sides) =>
    mapFiles(sides, (path, text) => {
      if (!path.endsWith('.tf')) return null;
      const name = `gj_${slug(path)}.${ext}`;
      const fn = ext === 'yaml' ? 'yamldecode' : 'jsondecode';
      const out = spellTfNumbers(text, (_v, n) => `${fn}(file("\${path.module}/${name}")).n${n}`);
      if (out.values.length === 0) return null;
      const data =
        ext === 'yaml'
          ? out.values.map((v, i) => `n${i + 1}: ${v}\n`).join('')
          : `${JSON.stringify(Object.fromEntries(out.values.map((v, i) => [`n${i + 1}`, v])), null, 2)}\n`;
      return { [path]: out.text, [join(dirOf(path), name)]: data };
    }),
});

/**
 * Each number of the pools set in a chain of locals across two files (`local.gj_a` → `local.gj_b`
 * → the number), each `locals` block in a file of its own.
 */
const tfLocalsChain: Rewrite = {
  id: 'tf-locals-chain',
  what: 'each Terraform number a `local.` that names another `local.` set in another file',
  apply: (sides) =>
    mapFiles(sides, (path, text) => {
      if (!path.endsWith('.tf')) return null;
      const s = slug(path);
      const out = spellTfNumbers(text, (_v, n) => `local.gj_${s}_a${n}`);
      if (out.values.length === 0) return null;
      const first = out.values.map((_v, i) => `  gj_${s}_a${i + 1} = local.gj_${s}_b${i + 1}\n`).join('');
      const second = out.values.map((v, i) => `  gj_${s}_b${i + 1} = ${v}\n`).join('');
      return {
        [path]: `${out.text}\nlocals {\n${first}}\n`,
        [join(dirOf(path), `gj_chain_${s}.tf`)]: `locals {\n${second}}\n`,
      };
    }),
};

/**
 * Each number of the pools `lookup(var.gj_<file>, "nN", 0)`, the variable a map whose default
 * holds the numbers: Terraform reads the default where no value is given.
 */
const tfLookupVarMap: Rewrite = {
  id: 'tf-lookup-var-map',
  what: 'each Terraform number `lookup(var.m, "nN", 0)`, the map a variable’s default',
  apply: (sides) =>
    mapTfNumbers(
      sides,
      (_v, n, path) => `lookup(var.gj_${slug(path)}, "n${n}", 0)`,
      (values, path) =>
        `variable "gj_${slug(path)}" {\n  type = map(number)\n  default = {\n${values.map((v, i) => `    n${i + 1} = ${v}\n`).join('')}  }\n}\n`,
    ),
};

/**
 * Each number of the pools `merge(local.defaults, local.overrides).nN`: a defaults map of zeros
 * and an override map of the numbers, which `merge` lets win.
 */
const tfMergeDefaultsMap: Rewrite = {
  id: 'tf-merge-defaults-map',
  what: 'each Terraform number from `merge()` of a map of zeros and a map of the numbers in locals',
  apply: (sides) =>
    mapTfNumbers(
      sides,
      (_v, n, path) => `merge(local.gj_${slug(path)}_defaults, local.gj_${slug(path)}_overrides).n${n}`,
      (values, path) =>
        `locals {\n  gj_${slug(path)}_defaults = {\n${values.map((_v, i) => `    n${i + 1} = 0\n`).join('')}  }\n  gj_${slug(path)}_overrides = {\n${values.map((v, i) => `    n${i + 1} = ${v}\n`).join('')}  }\n}\n`,
    ),
};

/** Numbers written as quoted strings, which Terraform converts where a number is wanted. */
const tfQuotedNumbers: Rewrite = {
  id: 'tf-quoted-numbers',
  what: 'each Terraform number a quoted string `"8"`',
  apply: (sides) => mapTfNumbers(sides, (v) => `"${v}"`),
};

export const TF_FILE_VALUES: readonly Rewrite[] = [
  decodedFile('tf-yamldecode-file', 'each Terraform number `yamldecode(file("${path.module}/x.yaml")).nN`, the file beside', 'yaml'),
  decodedFile('tf-jsondecode-file', 'each Terraform number `jsondecode(file("${path.module}/x.json")).nN`, the file beside', 'json'),
  tfLocalsChain,
  tfLookupVarMap,
  tfMergeDefaultsMap,
  tfQuotedNumbers,
];
