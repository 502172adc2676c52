import type { Rewrite } from '../rewrite.js';
import { mapKubeStreams } from './kube-files.js';
import { listOf } from './list-text.js';

/**
 * A file of objects of one kind as that kind's list (`kind: ClusterQueueList`, the objects'
 * `apiVersion`), which kubectl unwraps as it does `v1/List`: any object with `items` is a list.
 */
export const yamlTypedList: Rewrite = {
  id: 'yaml-typed-list',
  what: 'objects of one kind as its `<Kind>List`',
  apply: (sides) =>
    mapKubeStreams(sides, (docs) => {
      const kinds = new Set(docs.map((d) => `${String(d.get('apiVersion'))}\u0000${String(d.get('kind'))}`));
      if (kinds.size !== 1) return null;
      const [apiVersion, kind] = [...kinds][0]?.split('\u0000') ?? [];
      return listOf(`apiVersion: ${apiVersion ?? ''}\nkind: ${kind ?? ''}List\n`, docs);
    }),
};
