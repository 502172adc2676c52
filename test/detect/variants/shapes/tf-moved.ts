import type { Rewrite } from '../rewrite.js';
import { changedFiles } from '../variant-tree.js';
import type { Sides } from '../variant-tree.js';

const POOL = /^resource\s+"(google_container_node_pool|aws_eks_node_group|azurerm_kubernetes_cluster_node_pool)"\s+"([^"]+)"/gm;

/**
 * The pull request also renames each pool resource it touches, with the `moved {}` block that
 * tells Terraform it is the same object: what is planned is the case's change, under the new name.
 */
export const tfMoved: Rewrite = {
  id: 'tf-moved',
  what: 'the changed pool resources renamed at head, with `moved {}` blocks',
  apply: (sides: Sides) => {
    const files = { ...sides.head.files };
    let renamed = 0;
    for (const path of changedFiles(sides).filter((p) => p.endsWith('.tf'))) {
      const text = files[path];
      if (text === undefined) continue;
      const moved: string[] = [];
      const names = new Map<string, string>();
      const out = text.replace(POOL, (line: string, type: string, name: string) => {
        moved.push(`moved {\n  from = ${type}.${name}\n  to   = ${type}.${name}_gj\n}\n`);
        names.set(`${type}.${name}.`, `${type}.${name}_gj.`);
        return line.replace(`"${name}"`, `"${name}_gj"`);
      });
      if (moved.length === 0) continue;
      renamed += moved.length;
      // References to the resource follow it; the `moved` blocks keep the old address.
      let body = out;
      for (const [from, to] of names) body = body.split(from).join(to);
      files[path] = `${body}\n${moved.join('\n')}`;
    }
    return renamed === 0 ? null : { base: sides.base, head: { files, special: { ...sides.head.special } } };
  },
};
