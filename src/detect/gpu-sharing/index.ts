/** GPU sharing: device-plugin time-slicing and MPS configs, MIG layouts. */
export { gpuSharingParser } from './gpu-sharing.js';
