import { isCollection, visit } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/**
 * An anchor on every object and on every mapping and sequence in it (`&gj3`), none of them used:
 * an anchor names a node for an alias and adds nothing to it, so go-yaml reads the same objects.
 */
export const yamlAnchoredObjects: Rewrite = {
  id: 'yaml-anchored-objects',
  what: 'an unused anchor on every object and on every mapping and list in it',
  apply: (sides) =>
    mapKubeFiles(sides, (docs) => {
      let n = 0;
      for (const doc of docs)
        visit(doc, {
          Node(_, node) {
            if (isCollection(node) && node.anchor === undefined) node.anchor = `gj${++n}`;
          },
        });
      return docs.map(docText).join('---\n');
    }),
};
