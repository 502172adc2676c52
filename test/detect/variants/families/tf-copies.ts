import type { Tree } from '../../real-fixtures.js';
import type { Rewrite, Row } from '../rewrite.js';
import { copyBlocks } from '../rewrites-terraform.js';
import type { Sides, VariantTree } from '../variant-tree.js';

/** Every `.tf` file of both sides passed through `fn` (null: left as it is); null when no file changed. */
function mapTfFiles(sides: Sides, fn: (text: string) => string | null): Sides | null {
  const seen = { touched: false };
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = {};
    for (const [path, text] of Object.entries(tree.files)) {
      const out = path.endsWith('.tf') ? fn(text) : null;
      if (out !== null) seen.touched = true;
      files[path] = out ?? text;
    }
    return { files, special: { ...tree.special } };
  };
  const out = { base: side(sides.base), head: side(sides.head) };
  return seen.touched ? out : null;
}

const doubled = (rows: readonly Row[]): Row[] => rows.map(([kind, name, before, after]) => [kind, name, before * 2, after * 2]);

const copies = (id: string, what: string, meta: string, expect?: Rewrite['expect']): Rewrite => ({
  id,
  what,
  apply: (sides) => mapTfFiles(sides, (text) => copyBlocks(text, meta)),
  ...(expect ? { expect } : {}),
});

/**
 * Pool blocks copied by the meta-arguments in the spellings people use besides `toset([...])`: a
 * `count = 1` wrapper (one copy, the same pools), a `for_each` over a map literal of one key (the
 * same) or two (twice the GPUs), and a `for_each` over a `range` of two (twice).
 */
export const TF_COPIES: readonly Rewrite[] = [
  copies('tf-count-one', 'each pool block with `count = 1`', 'count = 1'),
  copies('tf-for_each-map-one', 'each pool block under `for_each` over a map of one key', 'for_each = { only = "gpu" }'),
  copies(
    'tf-for_each-map-two',
    'each pool block under `for_each` over a map of two keys (twice the GPUs)',
    'for_each = { a = 1, b = 2 }',
    doubled,
  ),
  copies(
    'tf-for_each-range',
    'each pool block under `for_each = toset([for i in range(2) : tostring(i)])` (twice the GPUs)',
    'for_each = toset([for i in range(2) : tostring(i)])',
    doubled,
  ),
];
