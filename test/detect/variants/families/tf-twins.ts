import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { toJson } from '../rewrites-terraform.js';
import { changedFiles } from '../variant-tree.js';
import type { Sides, VariantTree } from '../variant-tree.js';

const isTf = (p: string) => p.endsWith('.tf');

/** A comment that names GPUs, machines and counts: the kind of text a floor must not take for capacity. */
const COMMENT = 'was 8 x nvidia.com/gpu on p4d.24xlarge (a3-highgpu-8g, Standard_ND96asr_v4); see the capacity plan';

/** Blocks whose bodies hold arguments and nested blocks, each body an object where `"//"` is a comment. */
const COMMENTED = ['resource', 'data', 'module'] as const;

/**
 * `"//"` comment properties in the file object and in the body of every resource, data and
 * module block: Terraform's JSON syntax ignores a `"//"` property of an object that stands for a
 * block (not of an attribute's object value, where it would be a key; none is touched here).
 */
function commented(json: string): string {
  const body = JSON.parse(json) as Record<string, unknown>;
  for (const kind of COMMENTED) {
    const byType = body[kind];
    if (typeof byType !== 'object' || byType === null) continue;
    // resource and data: type → name → [body]; module: name → [body].
    const lists: unknown[] =
      kind === 'module'
        ? Object.values(byType)
        : Object.values(byType).flatMap((byName: unknown): unknown[] => Object.values(byName as Record<string, unknown>));
    for (const list of lists) {
      const blocks: unknown[] = Array.isArray(list) ? (list as unknown[]) : [list];
      for (const block of blocks) {
        if (typeof block !== 'object' || block === null) continue;
        const record = block as Record<string, unknown>;
        const entries = Object.entries(record);
        for (const k of Object.keys(record)) delete record[k];
        Object.assign(record, { '//': COMMENT }, Object.fromEntries(entries));
      }
    }
  }
  return `${JSON.stringify({ '//': `${COMMENT}; generated`, ...body }, null, 2)}\n`;
}

/** Each side's `.tf` files passed through `fn` (path, text → the files standing for it); null when one cannot be. */
async function mapTf(sides: Sides, fn: (path: string, text: string) => Promise<Tree | null>): Promise<Sides | null> {
  if (!changedFiles(sides).some(isTf)) return null;
  const side = async (tree: VariantTree): Promise<VariantTree | null> => {
    const files: Tree = {};
    for (const [path, text] of Object.entries(tree.files)) {
      if (!isTf(path)) {
        files[path] = text;
        continue;
      }
      const out = await fn(path, text);
      if (out === null) return null;
      Object.assign(files, out);
    }
    return { files, special: { ...tree.special } };
  };
  const base = await side(sides.base);
  const head = await side(sides.head);
  return base && head ? { base, head } : null;
}

/**
 * A folder read by OpenTofu, which loads `.tofu` files as it loads `.tf` ones and, where `x.tofu`
 * and `x.tf` are both present, ignores `x.tf`. A review that knows only `.tf` either reads the
 * twin or names what it cannot follow; it never reads the shadowed `.tf` as the change.
 */
export const TF_TWINS: readonly Rewrite[] = [
  {
    id: 'tf-json-comments',
    what: 'every `.tf` file as `.tf.json`, a `"//"` comment naming GPUs and machines in the file and every block',
    apply: (sides) =>
      mapTf(sides, async (path, text) => {
        const json = await toJson(path, text);
        return json === null ? null : { [`${path}.json`]: commented(json) };
      }),
  },
  {
    id: 'tf-tofu',
    what: 'every `.tf` file renamed `.tofu` (an OpenTofu configuration)',
    apply: (sides) => mapTf(sides, (path, text) => Promise.resolve({ [path.replace(/\.tf$/, '.tofu')]: text })),
  },
  {
    id: 'tf-tofu-shadow',
    what: 'every changed `.tf` file kept as at base, the change in a `.tofu` twin OpenTofu reads instead',
    apply: (sides) => {
      // Files on both sides: one added or removed has no base text to shadow.
      const changed = changedFiles(sides).filter((p) => isTf(p) && sides.base.files[p] !== undefined && sides.head.files[p] !== undefined);
      if (changed.length === 0) return null;
      const side = (tree: VariantTree): VariantTree => {
        const files: Tree = { ...tree.files };
        for (const p of changed) {
          files[p] = sides.base.files[p] ?? '';
          files[p.replace(/\.tf$/, '.tofu')] = tree.files[p] ?? '';
        }
        return { files, special: { ...tree.special } };
      };
      return { base: side(sides.base), head: side(sides.head) };
    },
  },
];
