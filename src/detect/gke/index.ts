/** GKE: Config Connector node pools and cluster autoprovisioning limits; custom ComputeClasses. */
export { gkeClusterAutoprovisioningParser } from './gke-cluster-autoprovisioning.js';
export { gkeComputeClassParser } from './compute-class.js';
export { gkeNodePoolParser } from './gke-node-pool.js';
