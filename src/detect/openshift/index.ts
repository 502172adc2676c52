/** OpenShift MachineSets, MachineAutoscalers and the ClusterAutoscaler's GPU limits. */
export { openshiftAutoscalerParser } from './openshift-autoscaler.js';
export { openshiftMachinesParser } from './openshift-machines.js';
