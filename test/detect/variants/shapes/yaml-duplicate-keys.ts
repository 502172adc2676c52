import type { Rewrite } from '../rewrite.js';
import { mapKubeFiles } from './kube-files.js';

/**
 * Every whole number of a mapping set twice, `0` first and the value after: go-yaml v2 (kubectl,
 * Helm, Argo CD) keeps the last, kustomize and strict validation refuse the file. The same count,
 * or not followed; never 0.
 */
export const yamlDuplicateKeys: Rewrite = {
  id: 'yaml-duplicate-keys',
  what: 'every whole number set twice in its mapping, `0` first',
  apply: (sides) =>
    mapKubeFiles(sides, (_docs, _path, text) => {
      let block: number | null = null;
      return text
        .split('\n')
        .flatMap((line) => {
          const indent = line.length - line.trimStart().length;
          if (block !== null && (line.trim() === '' || indent > block)) return [line];
          block = null;
          if (/:\s*[|>][-+0-9]*\s*$/.test(line)) block = indent;
          const m = /^(\s+)([A-Za-z][\w./-]*):\s+[1-9][0-9]*\s*$/.exec(line);
          return m ? [`${m[1] ?? ''}${m[2] ?? ''}: 0`, line] : [line];
        })
        .join('\n');
    }),
};
