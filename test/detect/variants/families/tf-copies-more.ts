import type { Tree } from '../../real-fixtures.js';
import type { Rewrite, Row } from '../rewrite.js';
import { copyBlocks } from '../rewrites-terraform.js';
import { dirOf, join } from '../shapes/kube-files.js';
import type { Sides, VariantTree } from '../variant-tree.js';

/**
 * Every `.tf` file of both sides passed through `fn`; each folder where one changed also given the
 * files `extra` writes for it (a `locals` block in a file of its own). Null when no file changed.
 */
function mapTfCopies(sides: Sides, fn: (text: string) => string | null, extra?: Tree): Sides | null {
  const seen = { touched: false };
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = {};
    const dirs = new Set<string>();
    for (const [path, text] of Object.entries(tree.files)) {
      const out = path.endsWith('.tf') ? fn(text) : null;
      if (out !== null) {
        seen.touched = true;
        dirs.add(dirOf(path));
      }
      files[path] = out ?? text;
    }
    for (const dir of dirs) for (const [name, text] of Object.entries(extra ?? {})) files[join(dir, name)] = text;
    return { files, special: { ...tree.special } };
  };
  const out = { base: side(sides.base), head: side(sides.head) };
  return seen.touched ? out : null;
}

const doubled = (rows: readonly Row[]): Row[] => rows.map(([kind, name, before, after]) => [kind, name, before * 2, after * 2]);

const copies = (id: string, what: string, meta: string, expect?: Rewrite['expect'], extra?: Tree): Rewrite => ({
  id,
  what,
  apply: (sides) => mapTfCopies(sides, (text) => copyBlocks(text, meta), extra),
  ...(expect ? { expect } : {}),
});

/**
 * Pool blocks copied, each copy under the block's one literal name, by the meta-argument spellings
 * generated configurations use: `count` over a list's length, `for_each` over a list of objects
 * made a map, over a `setproduct`, through a local set in another file, and a `count` that a
 * workspace conditional leaves at one either way.
 */
export const TF_COPIES_MORE: readonly Rewrite[] = [
  copies('tf-count-length', 'each pool block with `count = length(["a", "b"])` (twice the GPUs)', 'count = length(["a", "b"])', doubled),
  copies(
    'tf-for_each-objects',
    'each pool block under `for_each = { for o in [{ name = "a" }, { name = "b" }] : o.name => o }` (twice the GPUs)',
    'for_each = { for o in [{ name = "a" }, { name = "b" }] : o.name => o }',
    doubled,
  ),
  copies(
    'tf-for_each-setproduct',
    'each pool block under `for_each` over a `setproduct` of one zone and two tiers (twice the GPUs)',
    'for_each = toset([for p in setproduct(["z1"], ["a", "b"]) : join("-", p)])',
    doubled,
  ),
  copies(
    'tf-count-local-elsewhere',
    'each pool block with `count = local.gj_copies`, set to 2 in another file (twice the GPUs)',
    'count = local.gj_copies',
    doubled,
    { 'gj-copies.tf': 'locals {\n  gj_copies = 2\n}\n' },
  ),
  copies(
    'tf-count-workspace',
    'each pool block with `count = terraform.workspace == "prod" ? 1 : 1`, one copy in every workspace',
    'count = terraform.workspace == "prod" ? 1 : 1',
  ),
];
