import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapKubeStreams } from './kube-files.js';

/**
 * Every document opened by `---` with a comment after it (the one thing kubectl allows there),
 * closed by `...`, comments and empty documents between: kubectl skips what holds no object.
 */
export const yamlDocumentMarkers: Rewrite = {
  id: 'yaml-document-markers',
  what: 'documents between `--- # …` and `...`, comments and empty documents between',
  apply: (sides) =>
    mapKubeStreams(
      sides,
      (docs) =>
        `# objects of this folder\n---\n${docs.map((d, i) => `--- # object ${i + 1}\n${docText(d)}...\n# between\n`).join('')}---\n`,
    ),
};
