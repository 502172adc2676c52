/** Kubermatic machine-controller MachineDeployments and MachineSets (cluster.k8s.io/v1alpha1). */
export { machineControllerParser } from './machine-controller.js';
