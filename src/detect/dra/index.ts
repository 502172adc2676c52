/** Dynamic Resource Allocation: ResourceClaims, ResourceClaimTemplates, DeviceClasses, ResourceSlices of GPUs. */
export { draParser } from './dra.js';
