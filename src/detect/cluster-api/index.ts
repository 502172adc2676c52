/** Cluster API: MachineDeployments, MachinePools and their infrastructure templates. */
export { capiParser } from './capi.js';
