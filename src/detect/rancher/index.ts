/** Rancher's node-driver clusters: machine pools and their machine configs. */
export { rancherMachinePoolsParser } from './rancher-machine-pools.js';
