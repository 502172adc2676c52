import type { Rewrite } from '../rewrite.js';
import { freeKubeFiles, moveFiles } from './kube-files.js';

/**
 * The changed files of objects that nothing names with an uppercase `.YAML`: applied when named
 * (`kubectl apply -f x.YAML`), skipped by `kubectl apply -f <folder>`, which matches `.yaml`
 * exactly. The same count, or not followed.
 */
export const upperExtension: Rewrite = {
  id: 'upper-extension',
  what: 'the changed files of objects as `.YAML`',
  apply: (sides) => moveFiles(sides, freeKubeFiles(sides), (p) => p.replace(/\.ya?ml$/, '.YAML')),
};
