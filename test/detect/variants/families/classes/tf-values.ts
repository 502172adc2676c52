import type { Rewrite } from '../../rewrite.js';
import { baseName, dirOf, join } from '../../shapes/kube-files.js';
import { mapTfNumbers, spellTfNumbers } from '../../shapes/tf-numbers.js';
import { mapFiles } from '../../variant-tree.js';

/** A name for Terraform identifiers drawn from a file's path, so files of one folder do not collide. */
const slug = (path: string) =>
  baseName(path)
    .replace(/\.tf$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_');

/**
 * Each number of the pools an attribute of a variable whose object type gives it as an
 * `optional(number, n)` default, the variable's own default `{}`: Terraform (1.3+) fills the
 * attribute with its default when it converts `{}` to the type.
 */
export const tfOptionalDefaults: Rewrite = {
  id: 'tf-optional-defaults',
  what: 'each Terraform number `var.x.nN`, given by `optional(number, n)` in the variable’s type, default `{}`',
  apply: (sides) =>
    mapTfNumbers(
      sides,
      (_v, n, path) => `var.gj_opt_${slug(path)}.n${n}`,
      (values, path) =>
        `variable "gj_opt_${slug(path)}" {\n  type = object({\n${values
          .map((v, i) => `    n${i + 1} = optional(number, ${v})\n`)
          .join('')}  })\n  default = {}\n}\n`,
    ),
};

/** Each number of the pools a `local.` value set in a file of its own beside (`gj_locals_<file>.tf`). */
export const tfLocalsFile: Rewrite = {
  id: 'tf-locals-file',
  what: 'each Terraform number a `local.` value set in another file of the folder',
  apply: (sides) =>
    mapFiles(sides, (path, text) => {
      if (!path.endsWith('.tf')) return null;
      const out = spellTfNumbers(text, (_v, n) => `local.gj_${slug(path)}_${n}`);
      if (out.values.length === 0) return null;
      const locals = out.values.map((v, i) => `  gj_${slug(path)}_${i + 1} = ${v}\n`).join('');
      return { [path]: out.text, [join(dirOf(path), `gj_locals_${slug(path)}.tf`)]: `locals {\n${locals}}\n` };
    }),
};

const wrapper = (id: string, what: string, spell: (v: number) => string): Rewrite => ({
  id,
  what,
  apply: (sides) => mapTfNumbers(sides, (v) => spell(v)),
});

/**
 * Each number of the pools behind a function Terraform folds before it plans: a default that
 * `lookup` falls back to in an empty map, a key of a `tomap`, the first non-empty list of
 * `coalescelist`, a JSON heredoc, a `can`-guarded choice.
 */
export const TF_FOLDED: readonly Rewrite[] = [
  wrapper('tf-lookup-default', 'each Terraform number the default of `lookup(tomap({}), "v", n)`', (v) => `lookup(tomap({}), "gj", ${v})`),
  wrapper('tf-tomap-key', 'each Terraform number `tomap({ v = n })["v"]`', (v) => `tomap({ gj = ${v} })["gj"]`),
  wrapper('tf-coalescelist', 'each Terraform number `coalescelist([], [n])[0]`', (v) => `coalescelist([], [${v}])[0]`),
  wrapper(
    'tf-jsondecode-heredoc',
    'each Terraform number `jsondecode(<<-EOT … EOT).v`, a JSON object in a heredoc',
    (v) => `jsondecode(<<-EOT\n{"gj": ${v}}\nEOT\n).gj`,
  ),
  wrapper('tf-can-guard', 'each Terraform number `can(tonumber(n)) ? n : 0`', (v) => `can(tonumber("${v}")) ? ${v} : 0`),
];

/** Each number of the pools behind arithmetic and list functions Terraform folds: a sum, a length, a parse, a rounding. */
export const TF_FOLDED_MORE: readonly Rewrite[] = [
  wrapper('tf-tolist-index', 'each Terraform number `tolist([n])[0]`', (v) => `tolist([${v}])[0]`),
  wrapper('tf-sum', 'each Terraform number `sum([n, 0])`', (v) => `sum([${v}, 0])`),
  wrapper('tf-length-range', 'each Terraform number `length(range(n))`', (v) => `length(range(${v}))`),
  wrapper('tf-parseint', 'each Terraform number `parseint("n", 10)`', (v) => `parseint("${v}", 10)`),
  wrapper('tf-ceil-min', 'each Terraform number `ceil(min(n, n + 1))`', (v) => `ceil(min(${v}, ${v + 1}))`),
];
