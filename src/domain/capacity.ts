/** The kinds of capacity declaration the detectors recognise (docs/change-kinds.md). */
export type CapacityKind =
  | 'kueue-cluster-queue'
  | 'kueue-cohort'
  | 'karpenter-nodepool'
  | 'eksctl-nodegroup'
  | 'capi-machinedeployment'
  | 'gke-node-pool'
  | 'eks-node-group'
  | 'aks-node-pool'
  | 'openshift-cluster-autoscaler'
  | 'openshift-machineset'
  | 'gke-autoprovisioning'
  | 'sagemaker-hyperpod-group'
  | 'coreweave-nodepool'
  | 'nebius-node-group'
  | 'crusoe-node-pool'
  | 'civo-node-pool'
  | 'oci-node-pool'
  | 'kai-queue'
  | 'volcano-queue'
  | 'gardener-worker'
  | 'deckhouse-nodegroup'
  | 'gpu-sharing';

/** One GPU quantity inside a declaration, e.g. one flavor's nominalQuota of nvidia.com/gpu. */
export interface CapacityPart {
  /** Kueue flavor, node group, … */
  label: string;
  /** The extended resource name, e.g. `nvidia.com/gpu` or `nvidia.com/mig-1g.5gb`. */
  resource: string;
  gpus: number;
  line: number;
  /** Kueue: GPUs this flavor may borrow from its cohort; absent means no limit. */
  borrowingLimit?: number;
  /** Kueue: GPUs of this flavor the cohort may borrow; absent means all of them. */
  lendingLimit?: number;
}

/** How a node's GPUs are shared between pods: what advertises more GPUs than the node has. */
export type SharingMode = 'time-slicing' | 'mps' | 'bottlerocket-time-slicing' | 'gke-time-sharing' | 'gke-mps' | 'node-overlay';

/** Where a pool's sharing factor was read. */
export interface SharingSource {
  file: string;
  line: number;
  /** The config's name: `ConfigMap/key`, `EC2NodeClass/<name>`, `NodeOverlay/<name>`, the pool's own. */
  name: string;
}

/**
 * GPU sharing on a node pool. `shared`: each physical GPU is advertised as `factor` schedulable
 * GPUs, and the declaration's `gpus` is physical; `unknown`: a sharing config is in view but
 * cannot be tied to the pool (or read), so the physical count is not known (`code` says why).
 */
export type PoolSharing =
  | {
      state: 'shared';
      factor: number;
      mode: SharingMode;
      source: SharingSource;
      /** GPUs the scheduler sees: physical × factor. */
      schedulable: number;
    }
  | {
      state: 'unknown';
      code: 'sharing-unlinked' | 'sharing-unreadable' | 'sharing-ambiguous';
      source: SharingSource;
    };

/** What ties a pool's nodes to a sharing config elsewhere (Karpenter). */
export interface SharingLink {
  /** The GPU limit, in advertised GPUs: Karpenter counts the node's capacity as the device plugin reports it. */
  limit: number | null;
  /** Physical GPUs from a node count (static replicas × GPUs per node), when known. */
  fromNodes: number | null;
  /** The `nvidia.com/device-plugin.config` label the pool's nodes carry; null when none. */
  deviceConfig: string | null;
  /** The node class its nodes are made from (`nodeClassRef.name`); null when none. */
  nodeClass: string | null;
  /** GPUs per node, when the instance type is pinned: ties a NodeOverlay capacity to a factor. */
  gpusPerNode: number | null;
}

/**
 * The address the tool that applies an object tracks it by (Terraform's
 * `module.gpu["a"].google_container_node_pool.pool`), within the folder of the file it is placed
 * at: what pairs the two sides of a change when the object's name is not the same at both.
 */
export interface ObjectAddress {
  at: string;
  /** Addresses it had before, as `moved` blocks say (`from` → `to`, chains followed). */
  formerly: readonly string[];
}

/** The GPU capacity one object in one file declares. */
export interface CapacityDecl {
  file: string;
  /** Line of the object's most telling GPU value (the first quota line for a ClusterQueue). */
  line: number;
  kind: CapacityKind;
  /** Pool or queue name; the key that links workloads to the change. */
  name: string;
  gpuModel: string | null;
  /** The most GPUs it can provide. */
  gpus: number;
  parts: CapacityPart[];
  /**
   * Node pools: the GPUs one more node adds (GPUs per node, times the zones of a per-zone count,
   * times the copies of a `count`), so a request can only shrink in these steps. Absent where
   * any whole number of GPUs can be asked for (a quota) or the step is unknown.
   */
  gpuStep?: number;
  /** Kueue cohort, when the queue is in one. */
  cohort?: string;
  /**
   * Kueue: GPUs the queue may borrow from its cohort, summed over the counted flavors; absent
   * when any of them sets no limit (borrowing is then bounded by the cohort alone).
   */
  borrowingLimit?: number;
  /** Kueue: GPUs the queue lends to its cohort at most; absent when any counted flavor sets no limit. */
  lendingLimit?: number;
  /** Node pools whose GPUs are time-sliced or MPS-shared, or may be (docs/change-kinds.md). */
  sharing?: PoolSharing;
  /** Karpenter: what links the pool to a sharing config in another object. */
  sharingLink?: SharingLink;
  /** Terraform: the resource's address, when it is known (see ObjectAddress). */
  address?: ObjectAddress;
}

/** The difference between base and head for one declaration (`detect --json`, docs/json.md). */
export interface CapacityChange {
  file: string;
  line: number;
  kind: CapacityKind;
  name: string;
  gpuModel: string | null;
  /**
   * The GPU model at the base side, where both sides name a model and they differ (`A10G` → `L4`):
   * the GPUs may stay as many, what they are and cost does not. Absent otherwise.
   */
  gpuModelBefore?: string;
  gpusBefore: number;
  gpusAfter: number;
  delta: number;
  /** The declaration at each side, when present; kept for the report and suggestions. */
  before?: CapacityDecl;
  after?: CapacityDecl;
  /** Default list price per GPU-hour of the GPU model; null when unknown or not hardware (sharing). */
  usdPerGpuHour?: number | null;
  /**
   * With `gpuModelBefore`: the price per GPU-hour of the base's model, null when unknown. What
   * tells a swap to a dearer model from one to a cheaper one; absent without a change of model.
   */
  usdPerGpuHourBefore?: number | null;
  /**
   * delta × usdPerGpuHour × 730 hours; with `gpuModelBefore`, what the head's GPUs cost less what
   * the base's cost (gpusAfter × price after − gpusBefore × price before, × 730). Null when a price
   * it needs is unknown.
   */
  usdPerMonthDelta?: number | null;
}
