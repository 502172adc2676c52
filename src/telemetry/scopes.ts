import type { CapacityChange, CapacityKind } from '../domain/index.js';
import { servedBy } from '../domain/index.js';
import type { Scope } from './queries/named-query.js';

/** The node label each kind of pool puts on its nodes (exported by kube-state-metrics as `label_…`). */
export const POOL_LABELS: Partial<Record<CapacityKind, string>> = {
  'karpenter-nodepool': 'karpenter.sh/nodepool',
  'gke-node-pool': 'cloud.google.com/gke-nodepool',
  'eks-node-group': 'eks.amazonaws.com/nodegroup',
  'eksctl-nodegroup': 'eks.amazonaws.com/nodegroup',
  'aks-node-pool': 'kubernetes.azure.com/agentpool',
  'capi-machinedeployment': 'cluster.x-k8s.io/deployment-name',
  // OpenShift labels the nodes of GPU machine sets with the type its ClusterAutoscaler limits.
  'openshift-cluster-autoscaler': 'cluster-api/accelerator',
  // The nodes GKE auto-provisions for an accelerator carry its type.
  'gke-autoprovisioning': 'cloud.google.com/gke-accelerator',
  // HyperPod's EKS nodes carry their instance group's name.
  'sagemaker-hyperpod-group': 'sagemaker.amazonaws.com/instance-group-name',
  // CKS labels each node with the Node Pool it belongs to.
  'coreweave-nodepool': 'compute.coreweave.com/node-pool',
  // Deckhouse's node-manager labels each node with its NodeGroup.
  'deckhouse-nodegroup': 'node.deckhouse.io/group',
};

/** What to ask Prometheus about a change: its ClusterQueue or its node pool; null when neither applies. */
export function scopeForChange(change: CapacityChange): Exclude<Scope, { kind: 'workload' }> | null {
  const served = servedBy(change);
  if (served.kind === 'queue') return { kind: 'queue', name: served.name };
  const poolLabel = POOL_LABELS[change.kind];
  return poolLabel === undefined ? null : { kind: 'pool', name: served.name, poolLabel };
}
