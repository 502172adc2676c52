import type { Rewrite } from '../rewrite.js';
import { mapKubeFiles } from '../shapes/kube-files.js';

/**
 * API versions the same kinds are served at beside the one a file names, with the same fields
 * for what is counted (Kueue's quotas, Karpenter's limits, Cluster API's replicas). An API server
 * that no longer serves one refuses the object, which is never a silent answer either.
 */
const SIBLINGS: [RegExp, string][] = [
  [/^kueue\.x-k8s\.io\/v1beta1$/, 'kueue.x-k8s.io/v1beta2'],
  [/^kueue\.x-k8s\.io\/v1beta2$/, 'kueue.x-k8s.io/v1beta1'],
  [/^karpenter\.sh\/v1$/, 'karpenter.sh/v1beta1'],
  [/^karpenter\.sh\/v1beta1$/, 'karpenter.sh/v1'],
  [/^cluster\.x-k8s\.io\/v1beta1$/, 'cluster.x-k8s.io/v1beta2'],
  [/^scheduling\.volcano\.sh\/v1beta1$/, 'scheduling.volcano.sh/v1beta2'],
];

export const kubeSiblingVersion: Rewrite = {
  id: 'kube-sibling-version',
  what: 'each object at another served version of its group (Kueue v1beta1/v1beta2, karpenter.sh v1/v1beta1 …)',
  apply: (sides) =>
    mapKubeFiles(sides, (docs, _path, text) => {
      let out = text;
      for (const doc of docs) {
        const version = String(doc.get('apiVersion'));
        const sibling = SIBLINGS.find(([from]) => from.test(version))?.[1];
        if (sibling !== undefined)
          out = out.replace(new RegExp(`^(apiVersion:\\s*["']?)${version.replace(/[./]/g, '\\$&')}(["']?\\s*)$`, 'gm'), `$1${sibling}$2`);
      }
      return out;
    }),
};
