/** GKE through Config Connector: node pools and cluster autoprovisioning limits. */
export { gkeClusterAutoprovisioningParser } from './gke-cluster-autoprovisioning.js';
export { gkeNodePoolParser } from './gke-node-pool.js';
