import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { dirOf, join } from '../shapes/kube-files.js';
import type { Sides, VariantTree } from '../variant-tree.js';

const POOL = /^resource\s+"((google|aws|azurerm)_(container_node_pool|eks_node_group|kubernetes_cluster_node_pool))"\s+"[^"]+"\s*\{\s*$/;

/** The body lines of the folder's default `provider "<name>"` block (no alias), or none. */
function defaultProvider(texts: readonly string[], name: string): string[] {
  for (const text of texts) {
    const lines = text.split('\n');
    const start = lines.findIndex((l) => new RegExp(`^provider\\s+"${name}"\\s*\\{\\s*$`).test(l));
    if (start < 0) continue;
    let depth = 0;
    for (let j = start; j < lines.length; j++) {
      const bare = (lines[j] ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(#|\/\/).*$/, '');
      depth += (bare.match(/\{/g) ?? []).length - (bare.match(/\}/g) ?? []).length;
      if (depth === 0) {
        const body = lines.slice(start + 1, j);
        if (body.some((l) => /^\s*alias\s*=/.test(l))) break;
        return body;
      }
    }
  }
  return [];
}

/** `provider = google-beta` (or `google-beta.other`) set in a resource body: the provider's local name. */
const PROVIDER_ARGUMENT = /^(\s*)provider\s*=\s*([A-Za-z][\w-]*)(?:\.[A-Za-z_][\w-]*)?\s*$/;

/** Braces a line opens less those it closes, strings and comments aside. */
function braceDepth(line: string): number {
  const bare = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(#|\/\/).*$/, '');
  return (bare.match(/\{/g) ?? []).length - (bare.match(/\}/g) ?? []).length;
}

/**
 * The lines of one `.tf` file with each pool resource bound to the `gj` alias of its provider:
 * a `provider = x` the resource sets is rewritten to `x.gj` (an argument set twice is no
 * configuration Terraform takes), otherwise the resource's own provider gains the line.
 */
function aliased(text: string, needed: Set<string>): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    out.push(line);
    const m = POOL.exec(line);
    if (!m) continue;
    // The resource's body, and a `provider` argument at its top level.
    let depth = 1;
    let end = i + 1;
    let own = -1;
    for (; end < lines.length && depth > 0; end++) {
      if (depth === 1 && own < 0 && PROVIDER_ARGUMENT.test(lines[end] ?? '')) own = end;
      depth += braceDepth(lines[end] ?? '');
    }
    const set = own < 0 ? null : PROVIDER_ARGUMENT.exec(lines[own] ?? '');
    const name = set?.[2] ?? m[2] ?? '';
    needed.add(name);
    if (set) {
      for (let j = i + 1; j < end; j++) out.push(j === own ? `${set[1] ?? ''}provider = ${name}.gj` : (lines[j] ?? ''));
      i = end - 1;
    } else out.push(`  provider = ${name}.gj`);
  }
  return out.join('\n');
}

/**
 * Each pool resource of the changed folders bound to an aliased provider (`provider = google.gj`)
 * configured as the default one is (its body copied, or empty when the folder has none): the
 * same pools in the same project, planned through another provider configuration.
 */
export const tfProviderAlias: Rewrite = {
  id: 'tf-provider-alias',
  what: 'each pool resource through an aliased provider configured as the default',
  apply: (sides: Sides) => {
    const seen = { touched: false };
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = { ...tree.files };
      const needed = new Map<string, Set<string>>();
      for (const [path, text] of Object.entries(tree.files)) {
        if (!path.endsWith('.tf') || !text.split('\n').some((l) => POOL.test(l))) continue;
        const set = needed.get(dirOf(path)) ?? new Set<string>();
        files[path] = aliased(text, set);
        needed.set(dirOf(path), set);
      }
      for (const [dir, names] of needed) {
        seen.touched = true;
        const texts = Object.entries(tree.files)
          .filter(([p]) => dirOf(p) === dir && p.endsWith('.tf'))
          .map(([, t]) => t);
        files[join(dir, 'gj-providers.tf')] = [...names]
          .sort()
          .map((name) => [`provider "${name}" {`, '  alias = "gj"', ...defaultProvider(texts, name), '}', ''].join('\n'))
          .join('\n');
      }
      return { files, special: { ...tree.special } };
    };
    const out = { base: side(sides.base), head: side(sides.head) };
    return seen.touched ? out : null;
  },
};
