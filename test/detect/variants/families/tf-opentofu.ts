import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { toJson } from '../rewrites-terraform.js';
import { changedFiles, mapFiles } from '../variant-tree.js';
import type { Sides, VariantTree } from '../variant-tree.js';

/*
 * OpenTofu's file names: `.tofu` and `.tofu.json` files are configuration as `.tf` files are, and a
 * `x.tofu` is read in place of `x.tf`. The case's `.tf` files renamed plan the same pools; a
 * `.tofu` twin that keeps the base's text while the pull request changes the `.tf` file plans
 * nothing new for OpenTofu and something new for Terraform: never "no change".
 */

const isTf = (p: string) => p.endsWith('.tf');
const changesTf = (sides: Sides) => changedFiles(sides).some(isTf);

/** Every `.tf` file of the case as a `.tofu` file of the same name. */
const tofuRenamed: Rewrite = {
  id: 'tf-opentofu-renamed',
  what: 'every `.tf` file renamed `.tofu`',
  apply: (sides) =>
    changesTf(sides) ? mapFiles(sides, (path, text) => (isTf(path) ? { [`${path.slice(0, -3)}.tofu`]: text } : null)) : null,
};

/** Every `.tf` file of the case in JSON syntax, as a `.tofu.json` file. */
const tofuJson: Rewrite = {
  id: 'tf-opentofu-json',
  what: 'every `.tf` file in JSON syntax, named `.tofu.json`',
  apply: async (sides) => {
    if (!changesTf(sides)) return null;
    const side = async (tree: VariantTree): Promise<VariantTree | null> => {
      const files: Tree = {};
      for (const [path, text] of Object.entries(tree.files)) {
        if (!isTf(path)) {
          files[path] = text;
          continue;
        }
        const json = await toJson(path, text);
        if (json === null) return null;
        files[`${path.slice(0, -3)}.tofu.json`] = json;
      }
      return { files, special: { ...tree.special } };
    };
    const [base, head] = [await side(sides.base), await side(sides.head)];
    return base && head ? { base, head } : null;
  },
};

/**
 * Each changed `.tf` file gains a `.tofu` twin holding its base text at both sides: OpenTofu reads
 * the twin. Where the case changes GPUs the two tools plan different capacity (not followed);
 * where it changes none, neither does (no change).
 */
const tofuStaleTwin: Rewrite = {
  id: 'tf-opentofu-stale-twin',
  what: 'a `.tofu` twin of each changed `.tf` file, left as the base had it',
  expect: 'not-followed-when-gpus-change',
  apply: (sides) => {
    const changed = changedFiles(sides).filter((p) => isTf(p) && sides.base.files[p] !== undefined && sides.head.files[p] !== undefined);
    if (changed.length === 0) return null;
    const twins = Object.fromEntries(changed.map((p) => [`${p.slice(0, -3)}.tofu`, sides.base.files[p] ?? '']));
    return {
      base: { files: { ...sides.base.files, ...twins }, special: { ...sides.base.special } },
      head: { files: { ...sides.head.files, ...twins }, special: { ...sides.head.special } },
    };
  },
};

export const TF_OPENTOFU: readonly Rewrite[] = [tofuRenamed, tofuJson, tofuStaleTwin];
