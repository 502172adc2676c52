import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { toJson } from '../rewrites-terraform.js';
import { changedFiles } from '../variant-tree.js';
import type { VariantTree } from '../variant-tree.js';

/** Blocks whose attributes are expressions in JSON syntax (a variable's default is a literal value, left alone). */
const EXPRESSION_BLOCKS = ['resource', 'data', 'module', 'locals'] as const;

/** Every number below `value` a `"${n}"` template: one interpolation alone gives its value, the number, unconverted. */
function interpolated(value: unknown): unknown {
  if (typeof value === 'number') return `\${${String(value)}}`;
  if (Array.isArray(value)) return value.map(interpolated);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolated(v)]));
  return value;
}

/** Every `.tf` file as its `.tf.json` twin, each number of its resources, modules and locals a `"${8}"` string. */
export const tfJsonInterpolated: Rewrite = {
  id: 'tf-json-interpolated',
  what: 'every `.tf` file as `.tf.json`, its numbers `"${n}"` strings',
  apply: async (sides) => {
    if (!changedFiles(sides).some((p) => p.endsWith('.tf'))) return null;
    const side = async (tree: VariantTree): Promise<VariantTree | null> => {
      const files: Tree = {};
      for (const [path, text] of Object.entries(tree.files)) {
        if (!path.endsWith('.tf')) {
          files[path] = text;
          continue;
        }
        const json = await toJson(path, text);
        if (json === null) return null;
        const body = JSON.parse(json) as Record<string, unknown>;
        for (const block of EXPRESSION_BLOCKS) if (block in body) body[block] = interpolated(body[block]);
        files[`${path}.json`] = `${JSON.stringify(body, null, 2)}\n`;
      }
      return { files, special: { ...tree.special } };
    };
    const base = await side(sides.base);
    const head = await side(sides.head);
    return base && head ? { base, head } : null;
  },
};
