/**
 * What an operator does to make a measurement answerable, for the missing-evidence lines analysis
 * writes when a figure is absent for a reason it can tell (pods request GPUs, none is named).
 */

const HOW_DCGM = 'run NVIDIA dcgm-exporter (GPU Operator) with Kubernetes pod mapping and scrape it into this Prometheus';

/** dcgm-exporter's GPUs, in general. */
export const HOW_WORKLOAD_DCGM = HOW_DCGM;

/**
 * A pool's GPUs are found by joining the exporter's host label to kube-state-metrics' node name:
 * an exporter that runs but reports a short host name or an IP matches no node of the pool.
 */
export const HOW_POOL_DCGM =
  `${HOW_DCGM}; its \`Hostname\` (or \`hostname\`) label must be the Kubernetes node name, as \`node\` in kube_node_labels ` +
  '(when it is a short host name or an IP, relabel it from __meta_kubernetes_pod_node_name in the scrape config)';

/**
 * dcgm-exporter's Kubernetes pod mapping: on by default in the Helm chart and the GPU Operator;
 * a standalone exporter needs the flag or the variable.
 */
export const HOW_POD_MAPPING =
  "turn on dcgm-exporter's Kubernetes pod mapping (`--kubernetes`, or `DCGM_EXPORTER_KUBERNETES=true`; on by default in the GPU Operator) " +
  'and scrape kube-state-metrics into this Prometheus';

export const HOW_MIG_ACTIVITY =
  'run dcgm-exporter on the MIG nodes with its profiling (DCP) fields: DCGM_FI_PROF_GR_ENGINE_ACTIVE, in its default counters, ' +
  'is the only busy measure DCGM reports per MIG instance (DCGM_FI_DEV_GPU_UTIL is not reported for MIG instances)';
