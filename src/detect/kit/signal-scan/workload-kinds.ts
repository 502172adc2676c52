import type { Lines } from '../lines.js';

/**
 * Kubernetes kinds that run workloads: whatever GPU name they carry (a container's limits, Ray's
 * `num_gpus` in a serve config, vLLM's `--tensor-parallel-size`, NIM's model profile `gpus`) is what
 * the workload asks for, never capacity it adds. DaemonSets are not among them: device plugins run
 * as DaemonSets, and their flags change how many GPUs a node advertises.
 */
const WORKLOAD_KINDS = new Set([
  'Pod',
  'PodTemplate',
  'Deployment',
  'StatefulSet',
  'ReplicaSet',
  'Job',
  'CronJob',
  'JobSet',
  'LeaderWorkerSet',
  'AppWrapper',
  'Workload',
  'RayJob',
  'RayCluster',
  'RayService',
  'PyTorchJob',
  'TFJob',
  'MPIJob',
  'XGBoostJob',
  'PaddleJob',
  'JAXJob',
  'TrainJob',
  'Notebook',
  'InferenceService',
  'ServingRuntime',
  'ClusterServingRuntime',
  'InferenceGraph',
  'LLMInferenceService',
  'Workflow',
  'WorkflowTemplate',
  'ClusterWorkflowTemplate',
  'CronWorkflow',
  'SparkApplication',
  'ScheduledSparkApplication',
  'NIMService',
  'NIMCache',
  'NIMPipeline',
]);

// A capacity controller deployed as a workload (the cluster autoscaler's `--nodes=min:max:group`) sizes pools.
const SIZES_POOLS = /autoscal|--nodes[= ]|node-group-auto-discovery/i;

/**
 * The lines of each YAML document (in text with comments masked) whose top-level `kind` runs a
 * workload and that configures no autoscaler.
 */
export function workloadDocuments(masked: string): Lines[] {
  const out: Lines[] = [];
  const lines = masked.split('\n');
  let from = 1;
  const close = (to: number) => {
    const doc = lines.slice(from - 1, to).join('\n');
    const kind = /^kind:[ \t]*["']?([A-Za-z]+)["']?[ \t]*$/m.exec(doc)?.[1];
    if (kind !== undefined && WORKLOAD_KINDS.has(kind) && !SIZES_POOLS.test(doc)) out.push({ from, to });
  };
  lines.forEach((line, i) => {
    if (/^---/.test(line)) {
      close(i);
      from = i + 2;
    }
  });
  close(lines.length);
  return out;
}
