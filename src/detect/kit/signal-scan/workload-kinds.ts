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

/**
 * API groups every kind of which runs a workload or describes one: KubeRay (RayCluster, RayJob,
 * RayService), Substratus (Model, Server, Notebook, Dataset: `resources.gpu` is what the pod asks
 * for), KubeAI (Model's `resourceProfile`), Seldon Core (SeldonDeployment) and Seldon Core 2
 * (Server, Model, Pipeline). A kind is judged by its group here, as `Server` or `Model` alone
 * names other things elsewhere (a cloud provider's bare-metal server).
 */
const WORKLOAD_GROUPS = /^(?:ray\.io|substratus\.ai|kubeai\.org|machinelearning\.seldon\.io|mlops\.seldon\.io)\/[A-Za-z0-9.]+$/;

/**
 * A capacity controller deployed as a workload sizes pools: the cluster autoscaler (its image,
 * `--nodes=min:max:group`, `--node-group-auto-discovery`, `--cloud-provider`). What scales pods
 * only is no such controller: KubeRay's `enableInTreeAutoscaling` and `autoscalerOptions` (the Ray
 * autoscaler adds worker pods up to a group's `maxReplicas`, and nodes come from the pools that
 * fit them), Knative's and KServe's `autoscaling.knative.dev/*`, Ray Serve's `autoscaling_config`.
 */
const SIZES_POOLS = /cluster-autoscaler|--nodes[= ]|node-group-auto-discovery|--cloud-provider[= ]/i;

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
    const group = /^apiVersion:[ \t]*["']?([A-Za-z0-9./-]+?)["']?[ \t]*$/m.exec(doc)?.[1] ?? '';
    const runs = kind !== undefined && (WORKLOAD_KINDS.has(kind) || WORKLOAD_GROUPS.test(group));
    if (runs && !SIZES_POOLS.test(doc)) out.push({ from, to });
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
