import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/**
 * The documents of a multi-document file in reverse order: kubectl, Argo CD and Flux apply each
 * object on its own, so which comes first changes nothing but the order of the calls.
 */
export const yamlDocumentsReordered: Rewrite = {
  id: 'yaml-documents-reordered',
  what: 'the documents of every multi-document file in reverse order',
  apply: (sides) => mapKubeFiles(sides, (docs) => (docs.length < 2 ? null : docs.map(docText).reverse().join('---\n'))),
};
