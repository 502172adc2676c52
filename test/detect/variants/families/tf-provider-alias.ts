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
        if (!path.endsWith('.tf')) continue;
        const lines = text.split('\n');
        const out: string[] = [];
        for (const line of lines) {
          out.push(line);
          const m = POOL.exec(line);
          if (!m) continue;
          out.push(`  provider = ${m[2] ?? ''}.gj`);
          const set = needed.get(dirOf(path)) ?? new Set<string>();
          set.add(m[2] ?? '');
          needed.set(dirOf(path), set);
        }
        files[path] = out.join('\n');
      }
      for (const [dir, names] of needed) {
        seen.touched = true;
        const texts = Object.entries(tree.files)
          .filter(([p]) => dirOf(p) === dir && p.endsWith('.tf'))
          .map(([, t]) => t);
        files[join(dir, 'gj-providers.tf')] = [...names]
          .map((name) => [`provider "${name}" {`, '  alias = "gj"', ...defaultProvider(texts, name), '}', ''].join('\n'))
          .join('\n');
      }
      return { files, special: { ...tree.special } };
    };
    const out = { base: side(sides.base), head: side(sides.head) };
    return seen.touched ? out : null;
  },
};
