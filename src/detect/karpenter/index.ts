/** Karpenter NodePools (and v1alpha5 Provisioners): GPU limits and static replicas. */
export { karpenterParser } from './karpenter.js';
