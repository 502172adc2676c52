import type { Rewrite } from '../rewrite.js';
import { baseName, dirOf, freeKubeFiles, join, moveFiles } from './kube-files.js';

/** The changed files of Kubernetes objects that nothing names moved two folders deeper, as a reorganisation does. */
export const moveDeeper: Rewrite = {
  id: 'move-deeper',
  what: 'the changed files of objects moved two folders deeper',
  apply: (sides) => moveFiles(sides, freeKubeFiles(sides), (p) => join(join(dirOf(p), 'gj-team/gpu'), baseName(p))),
};
