import type { Rewrite } from '../rewrite.js';
import { changedFiles } from '../variant-tree.js';
import type { Sides } from '../variant-tree.js';

const POOL =
  /^resource\s+"(google_container_node_pool|google_container_cluster|aws_eks_node_group|azurerm_kubernetes_cluster_node_pool|azurerm_kubernetes_cluster)"\s+"[^"]+"\s*\{\s*$/;
/** Blocks a `dynamic` block may not make (meta-arguments), or whose rules differ. */
const NOT_DYNAMIC = new Set(['lifecycle', 'provisioner', 'connection', 'dynamic', 'content', 'timeouts']);
const ATTRIBUTE = /^\s*([a-z_][a-z0-9_]*)\s*=\s*(.+?)\s*$/;

/** Whether a one-line value closes what it opens (no object or list carried to the next line) and holds no comment. */
function closed(value: string): boolean {
  const bare = value.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/#|\/\/|\/\*|<</.test(bare)) return false;
  const count = (re: RegExp) => (bare.match(re) ?? []).length;
  return count(/\{/g) === count(/\}/g) && count(/\[/g) === count(/\]/g) && count(/\(/g) === count(/\)/g);
}

/**
 * Each nested block of a pool resource that holds one-line attributes only (`guest_accelerator`,
 * `autoscaling`, `scaling_config`, a `taint`), written as a `dynamic` block over a literal list
 * (or, `asMap`, a map) of one element that holds its attributes: Terraform makes exactly the one block.
 */
function dynamicBlocks(text: string, asMap: boolean): string | null {
  const lines = text.split('\n');
  const out: string[] = [];
  let inPool = false;
  let depth = 0;
  let made = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (depth === 0) inPool = POOL.test(line);
    const open = /^(\s*)([a-z_][a-z0-9_]*)\s*\{\s*$/.exec(line);
    if (inPool && depth > 0 && open && !NOT_DYNAMIC.has(open[2] ?? '')) {
      const attrs: [string, string][] = [];
      let j = i + 1;
      let ok = true;
      for (; j < lines.length; j++) {
        const inner = lines[j] ?? '';
        if (/^\s*\}\s*$/.test(inner)) break;
        if (/^\s*(#.*)?$/.test(inner)) continue;
        const a = ATTRIBUTE.exec(inner);
        if (!a || !closed(a[2] ?? '')) {
          ok = false;
          break;
        }
        attrs.push([a[1] ?? '', a[2] ?? '']);
      }
      if (ok && j < lines.length && attrs.length > 0) {
        const [, indent = '', name = ''] = open;
        const element = `{ ${attrs.map(([k, v]) => `${k} = ${v}`).join(', ')} }`;
        const collection = asMap ? `{ gj = ${element} }` : `[${element}]`;
        out.push(
          `${indent}dynamic "${name}" {`,
          `${indent}  for_each = ${collection}`,
          `${indent}  content {`,
          ...attrs.map(([k]) => `${indent}    ${k} = ${name}.value.${k}`),
          `${indent}  }`,
          `${indent}}`,
        );
        made++;
        i = j;
        continue;
      }
    }
    const bare = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(#|\/\/).*$/, '');
    depth += (bare.match(/\{/g) ?? []).length - (bare.match(/\}/g) ?? []).length;
    out.push(line);
  }
  return made === 0 ? null : out.join('\n');
}

/** The pool resources of the changed Terraform files, at both sides, with their simple nested blocks made `dynamic`. */
export const tfDynamic: Rewrite = {
  id: 'tf-dynamic',
  what: 'nested blocks of pools as `dynamic` blocks over a literal one-element list or map',
  apply: (sides: Sides, _c, random) => {
    const paths = changedFiles(sides).filter((p) => p.endsWith('.tf'));
    // One draw per file, the same at both sides: base and head differ by the pull request alone.
    const asMap = paths.map(() => random() < 0.5);
    const out: Sides = {
      base: { files: { ...sides.base.files }, special: { ...sides.base.special } },
      head: { files: { ...sides.head.files }, special: { ...sides.head.special } },
    };
    // An object, not a `let`: the closure sets it, which narrowing does not see.
    const seen = { touched: false };
    paths.forEach((path, i) => {
      for (const side of ['base', 'head'] as const) {
        const text = out[side].files[path];
        if (text === undefined) continue;
        const made = dynamicBlocks(text, asMap[i] ?? false);
        if (made === null) continue;
        out[side].files[path] = made;
        seen.touched = true;
      }
    });
    return seen.touched ? out : null;
  },
};
