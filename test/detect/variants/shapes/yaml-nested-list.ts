import type { Rewrite } from '../rewrite.js';
import { mapKubeStreams } from './kube-files.js';
import { listOf } from './list-text.js';

/** A `List` whose one item is a `List` of the file's objects: kubectl flattens lists within lists. */
export const yamlNestedList: Rewrite = {
  id: 'yaml-nested-list',
  what: 'the objects in a `List` inside a `List`',
  apply: (sides) =>
    mapKubeStreams(sides, (docs) => `apiVersion: v1\nkind: List\nitems:\n${listOf('- apiVersion: v1\n  kind: List\n', docs, '  ')}`),
};
