import type { Lines } from '../lines.js';
import type { Structure } from './structure.js';

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
 * The lines of each object (a YAML document, a `List`'s item, a JSON or HCL object) whose own
 * `kind` runs a workload and that configures no autoscaler: the object's type is read from the
 * structure (structure.ts), so it is the same however the object is written. An object that is
 * not a whole document must say its `apiVersion` too, as every Kubernetes object does: a nested
 * `kind` alone (an HPA's `scaleTargetRef`, an owner reference) names another object, never this one.
 * Objects inside one already taken (or refused) are not tried again, so the scan stays linear.
 */
export function workloadSpans(structure: Pick<Structure, 'containers' | 'masked'>): Lines[] {
  const out: Lines[] = [];
  let lines: string[] | undefined;
  let covered = 0;
  const typed = structure.containers.filter((c) => c.kindName !== undefined).sort((a, b) => a.start - b.start);
  for (const c of typed) {
    if (c.end <= covered) continue;
    const kind = c.kindName ?? '';
    const group = c.apiVersion ?? '';
    if (c.document !== true && group === '') continue;
    if (!WORKLOAD_KINDS.has(kind) && !WORKLOAD_GROUPS.test(group)) continue;
    covered = c.end;
    const text = (lines ??= structure.masked.split('\n')).slice(c.start - 1, c.end).join('\n');
    if (!SIZES_POOLS.test(text)) out.push({ from: c.start, to: c.end });
  }
  return out;
}
