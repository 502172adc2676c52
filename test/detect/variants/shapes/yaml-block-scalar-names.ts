import { isScalar, Scalar, visit } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/**
 * Every `name:` whose value is a one-line string written as a block scalar (`name: >-` and the
 * name on the next line, or `|-`): the same string, so the same object, flavor or pool name.
 */
export const yamlBlockScalarNames: Rewrite = {
  id: 'yaml-block-scalar-names',
  what: 'every `name:` a `>-` or `|-` block scalar on its own line',
  apply: (sides, _c, random) =>
    mapKubeFiles(sides, (docs) => {
      for (const doc of docs)
        visit(doc, {
          Pair(_, pair) {
            const { key, value } = pair;
            if (!isScalar(key) || key.value !== 'name' || !isScalar(value) || typeof value.value !== 'string') return;
            // Block scalars keep leading spaces and need a printable line; names have neither problem, others are left.
            if (!/^\S(.*\S)?$/.test(value.value) || value.value.includes('#')) return;
            value.type = random() < 0.5 ? Scalar.BLOCK_FOLDED : Scalar.BLOCK_LITERAL;
          },
        });
      return docs.map(docText).join('---\n');
    }),
};
