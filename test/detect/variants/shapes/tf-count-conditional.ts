import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { copyBlocks } from '../rewrites-terraform.js';
import type { Sides, VariantTree } from '../variant-tree.js';
import { dirOf, join } from './kube-files.js';

/**
 * Each pool block switched on by `count = var.gj_enabled ? 1 : 0`, the variable's default true
 * (the common feature flag): one copy, the same pools.
 */
export const tfCountConditional: Rewrite = {
  id: 'tf-count-conditional',
  what: 'each pool block under `count = var.enabled ? 1 : 0`, enabled by default',
  apply: (sides: Sides) => {
    const seen = { touched: false };
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = { ...tree.files };
      for (const [path, text] of Object.entries(tree.files)) {
        if (!path.endsWith('.tf')) continue;
        const out = copyBlocks(text, 'count = var.gj_enabled ? 1 : 0');
        if (out === null) continue;
        seen.touched = true;
        files[path] = out;
        files[join(dirOf(path), 'gj-enabled.tf')] = 'variable "gj_enabled" {\n  type    = bool\n  default = true\n}\n';
      }
      return { files, special: { ...tree.special } };
    };
    const out = { base: side(sides.base), head: side(sides.head) };
    return seen.touched ? out : null;
  },
};
