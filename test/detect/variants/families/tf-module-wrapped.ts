import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { intoModuleInputs } from '../rewrites-terraform.js';
import type { VariantTree } from '../variant-tree.js';

/**
 * The `tf-module-inputs` module (`modules/gj`) wrapped in another local module (`modules/gj-outer`)
 * that hands its own inputs down: the root sets the numbers on the outer module, which passes each
 * to the inner one, as platform teams wrap a shared module. Terraform plans the same pools.
 */
export const tfModuleWrapped: Rewrite = {
  id: 'tf-module-wrapped',
  what: 'the `tf-module-inputs` module called through another local module that passes its inputs on',
  apply: async (sides, c, random) => {
    const inner = await intoModuleInputs.apply(sides, c, random);
    if (inner === null) return null;
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = { ...tree.files };
      for (const [path, text] of Object.entries(tree.files)) {
        if (!/(^|\/)gj-root\.tf$/.test(path)) continue;
        const dir = path.slice(0, path.length - 'gj-root.tf'.length);
        const inputs = [...text.matchAll(/^\s+(gj_\d+)\s*=\s*(.+)$/gm)].map((m) => [m[1] ?? '', m[2] ?? ''] as const);
        files[path] = `module "gj_outer" {\n  source = "./modules/gj-outer"\n${inputs.map(([k, v]) => `  ${k} = ${v}\n`).join('')}}\n`;
        files[`${dir}modules/gj-outer/main.tf`] =
          `module "gj" {\n  source = "../gj"\n${inputs.map(([k]) => `  ${k} = var.${k}\n`).join('')}}\n`;
        files[`${dir}modules/gj-outer/variables.tf`] = inputs.map(([k]) => `variable "${k}" {}\n`).join('');
      }
      return { files, special: { ...tree.special } };
    };
    return { base: side(inner.base), head: side(inner.head) };
  },
};
