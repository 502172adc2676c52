/** Autoscalers of machine groups (OpenShift MachineAutoscaler, KEDA ScaledObject, HorizontalPodAutoscaler). */
export { machineScalersParser } from './machine-scalers.js';
