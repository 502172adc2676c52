/** CoreWeave Kubernetes Service Node Pools. */
export { coreWeaveNodePoolParser } from './coreweave-nodepool.js';
