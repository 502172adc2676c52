import type { Rewrite } from '../rewrite.js';
import { flowStyleTexts } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/** Every object written in flow style (`{kind: ClusterQueue, spec: {…}}`): the same mappings and sequences. */
export const yamlFlowStyle: Rewrite = {
  id: 'yaml-flow-style',
  what: 'every object in flow style, `{…}` and `[…]`',
  apply: (sides) => mapKubeFiles(sides, (docs) => flowStyleTexts(docs).join('---\n')),
};
