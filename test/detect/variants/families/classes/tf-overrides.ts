import type { Tree } from '../../../real-fixtures.js';
import type { Rewrite } from '../../rewrite.js';
import { baseName, dirOf, join } from '../../shapes/kube-files.js';
import { mapTfLines } from '../../tf-lines.js';
import type { Sides, VariantTree } from '../../variant-tree.js';

/** Blocks an override file may set arguments of (Terraform merges them by type and labels). */
const OVERRIDABLE = /^(resource|data)\s+"[^"]+"\s+"[^"]+"\s*\{\s*$|^module\s+"[^"]+"\s*\{\s*$/;
/** Meta-arguments and arguments whose override would change more than a value. */
const KEEP = new Set(['count', 'version', 'source']);

/**
 * The file's top-level numeric arguments of resource, data and module blocks, each replaced by a
 * decoy `0` in the file and set, with the side's value, in an override block of the same type and
 * labels; null when the file has none.
 */
function split(text: string): { main: string; override: string } | null {
  const blocks = new Map<string, string[]>();
  let depth = 0;
  const main = mapTfLines(text, (line, { block, inside }) => {
    const stripped = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(#|\/\/).*$/, '');
    const before = depth;
    depth += (stripped.match(/\{/g) ?? []).length - (stripped.match(/\}/g) ?? []).length;
    if (!inside || before !== 1 || block === null || !OVERRIDABLE.test(block.trimEnd())) return line;
    const m = /^(\s*)([a-z_][a-z0-9_]*)(\s*=\s*)(\d+)(\s*(?:#.*)?)$/.exec(line);
    if (!m || KEEP.has(m[2] ?? '')) return line;
    const [, indent = '', key = '', eq = '', value = '', rest = ''] = m;
    const head = block.trimEnd();
    blocks.set(head, [...(blocks.get(head) ?? []), `  ${key} = ${value}`]);
    return `${indent}${key}${eq}0${rest}`;
  });
  if (blocks.size === 0) return null;
  const override = [...blocks].map(([head, lines]) => `${head}\n${lines.join('\n')}\n}\n`).join('\n');
  return { main, override };
}

/** Nested blocks whose merge is not the plain one (lifecycle, dynamic) or that hold no settings of a pool. */
const NESTED_KEEP = new Set(['lifecycle', 'dynamic', 'provisioner', 'connection', 'content']);

/**
 * The file's nested blocks directly inside resource, data and module blocks, each set whole in an
 * override block of the same type and labels, the file keeping a decoy copy whose numbers are `0`:
 * a nested block in an override replaces every block of its type in the original; null when the
 * file has none.
 */
function splitNested(text: string): { main: string; override: string } | null {
  const blocks = new Map<string, string[]>();
  let depth = 0;
  let capturing: string | null = null;
  const moved = { heredoc: false };
  const main = mapTfLines(text, (line, { block, inside }) => {
    const stripped = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(#|\/\/).*$/, '');
    const before = depth;
    depth += (stripped.match(/\{/g) ?? []).length - (stripped.match(/\}/g) ?? []).length;
    if (!inside || block === null || !OVERRIDABLE.test(block.trimEnd())) return line;
    const head = block.trimEnd();
    const open = /^\s*([a-z_][a-z0-9_]*)\s*\{\s*$/.exec(line);
    if (capturing === null && before === 1 && open && !NESTED_KEEP.has(open[1] ?? '') && depth > 1) capturing = head;
    if (capturing === null) return line;
    // A heredoc's body is passed on unvisited (mapTfLines): such a block is not moved.
    if (/<<-?\s*[A-Za-z_]\w*\s*$/.test(stripped)) moved.heredoc = true;
    blocks.set(capturing, [...(blocks.get(capturing) ?? []), line]);
    if (depth <= 1) capturing = null;
    return line.replace(/^(\s*[a-z_][a-z0-9_]*\s*=\s*)\d+(\s*(?:#.*)?)$/, '$10$2');
  });
  if (blocks.size === 0 || moved.heredoc) return null;
  const override = [...blocks].map(([head, lines]) => `${head}\n${lines.join('\n')}\n}\n`).join('\n');
  return { main, override };
}

/**
 * Each `.tf` file's top-level numbers moved to an override file beside it, the file keeping a
 * decoy `0`: Terraform merges `override.tf` and `*_override.tf` into the blocks they name, each
 * argument there replacing the original's, so it plans the same pools.
 */
const overrides = (
  id: string,
  what: string,
  name: (path: string) => string,
  move: (text: string) => { main: string; override: string } | null = split,
): Rewrite => ({
  id,
  what,
  apply: (sides: Sides) => {
    const seen = { touched: false };
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = {};
      const extra = new Map<string, string[]>();
      for (const [path, text] of Object.entries(tree.files)) {
        const out = path.endsWith('.tf') && !/(^|_)override\.tf$/.test(baseName(path)) ? move(text) : null;
        if (out === null) {
          files[path] = text;
          continue;
        }
        seen.touched = true;
        files[path] = out.main;
        extra.set(name(path), [...(extra.get(name(path)) ?? []), out.override]);
      }
      for (const [path, texts] of extra) files[path] = texts.join('\n');
      return { files, special: { ...tree.special } };
    };
    const out = { base: side(sides.base), head: side(sides.head) };
    return seen.touched ? out : null;
  },
});

export const TF_OVERRIDES: readonly Rewrite[] = [
  overrides('tf-override-file', 'each `.tf` file’s top-level numbers set in a `<name>_override.tf` beside, the file keeping `0`', (p) =>
    p.replace(/\.tf$/, '_override.tf'),
  ),
  overrides('tf-override-dir', 'every top-level number of a folder set in one `override.tf`, the files keeping `0`', (p) =>
    join(dirOf(p), 'override.tf'),
  ),
  overrides(
    'tf-override-nested',
    'each `.tf` file’s nested blocks of resources and modules set whole in a `<name>_override.tf` beside, the file keeping a copy whose numbers are `0`',
    (p) => p.replace(/\.tf$/, '_override.tf'),
    splitNested,
  ),
];
