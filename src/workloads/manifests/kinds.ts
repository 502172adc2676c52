import { mapGet, scalarString, seqItems } from '../../detect/kit/yaml-nodes.js';
import { countField } from './pod-template.js';

/** One group of identical pods as a kind declares it, before its GPUs are read. */
interface RawGroup {
  role: string;
  /** The pod spec (`template.spec`, or a KServe predictor, which is one). */
  podSpec: unknown;
  /** A `resources:` block stated outside any pod template (a TrainJob's, a KServe model's). */
  resources?: unknown;
  pods: number | null;
  /** The node the pod count was read from, for its line. */
  at: unknown;
}

export interface RawWorkload {
  type: 'batch' | 'training' | 'inference';
  groups: RawGroup[];
  /** Where a `kueue.x-k8s.io/queue-name` label may sit, nearest first. */
  labelHolders: unknown[];
  /** The Job spec whose `activeDeadlineSeconds` bounds a run. */
  jobSpec?: unknown;
  cronJob?: { schedule: unknown; timeZone: unknown };
}

type Extractor = (root: unknown) => RawWorkload | null;

const spec = (root: unknown) => mapGet(root, 'spec');
const podOf = (template: unknown) => mapGet(template, 'spec');

function jobGroups(jobSpec: unknown, role: string, times = 1): RawGroup[] {
  const parallelism = countField(jobSpec, 'parallelism', 1);
  return [{ role, podSpec: podOf(mapGet(jobSpec, 'template')), pods: parallelism === null ? null : parallelism * times, at: jobSpec }];
}

/** Ray: a head group and worker groups of `replicas` (their `maxReplicas` when autoscaling). */
function rayGroups(clusterSpec: unknown): RawGroup[] {
  const head: RawGroup = {
    role: 'head',
    podSpec: podOf(mapGet(mapGet(clusterSpec, 'headGroupSpec'), 'template')),
    pods: 1,
    at: clusterSpec,
  };
  const workers = seqItems(mapGet(clusterSpec, 'workerGroupSpecs')).map((g): RawGroup => {
    // The most the group can scale to: maxReplicas when it autoscales, replicas otherwise.
    const pods = mapGet(g, 'maxReplicas') === undefined ? countField(g, 'replicas', 1) : countField(g, 'maxReplicas', 1);
    return { role: scalarString(mapGet(g, 'groupName')) ?? 'worker', podSpec: podOf(mapGet(g, 'template')), pods, at: g };
  });
  return [head, ...workers];
}

/** Kubeflow's `<kind>ReplicaSpecs`: Master, Worker, PS … each with its replicas and template. */
function replicaSpecGroups(specs: unknown): RawGroup[] {
  const map = specs as { items?: { key: unknown; value: unknown }[] } | null;
  return (map?.items ?? []).map((pair) => ({
    role: scalarString(pair.key) ?? 'replica',
    podSpec: podOf(mapGet(pair.value, 'template')),
    pods: countField(pair.value, 'replicas', 1),
    at: pair.value,
  }));
}

/** A Kubeflow training job: its `<framework>ReplicaSpecs` (Master, Worker, Launcher, PS …). */
function kubeflowJob(field: string): { groups: readonly string[]; extract: Extractor } {
  return {
    groups: ['kubeflow.org'],
    extract: (root) => ({
      type: 'training',
      groups: replicaSpecGroups(mapGet(spec(root), field)),
      labelHolders: [mapGet(root, 'metadata')],
    }),
  };
}

/** The kinds that declare GPU workloads, by `kind` (the apiVersion's group is checked too). */
export const WORKLOAD_KINDS: Record<string, { groups: readonly string[]; extract: Extractor }> = {
  CronJob: {
    groups: ['batch'],
    extract: (root) => {
      const jobTemplate = mapGet(spec(root), 'jobTemplate');
      const jobSpec = mapGet(jobTemplate, 'spec');
      return {
        type: 'batch',
        groups: jobGroups(jobSpec, 'job'),
        labelHolders: [mapGet(jobTemplate, 'metadata'), mapGet(root, 'metadata')],
        jobSpec,
        cronJob: { schedule: mapGet(spec(root), 'schedule'), timeZone: mapGet(spec(root), 'timeZone') },
      };
    },
  },
  Job: {
    groups: ['batch'],
    extract: (root) => ({
      type: 'batch',
      groups: jobGroups(spec(root), 'job'),
      labelHolders: [mapGet(root, 'metadata')],
      jobSpec: spec(root),
    }),
  },
  JobSet: {
    groups: ['jobset.x-k8s.io'],
    extract: (root) => ({
      type: 'batch',
      groups: seqItems(mapGet(spec(root), 'replicatedJobs')).flatMap((rj) =>
        jobGroups(mapGet(mapGet(rj, 'template'), 'spec'), scalarString(mapGet(rj, 'name')) ?? 'job', countField(rj, 'replicas', 1) ?? 1),
      ),
      labelHolders: [mapGet(root, 'metadata')],
    }),
  },
  RayJob: {
    groups: ['ray.io'],
    extract: (root) => ({
      type: 'batch',
      groups: rayGroups(mapGet(spec(root), 'rayClusterSpec')),
      labelHolders: [mapGet(root, 'metadata')],
    }),
  },
  RayCluster: {
    groups: ['ray.io'],
    extract: (root) => ({ type: 'inference', groups: rayGroups(spec(root)), labelHolders: [mapGet(root, 'metadata')] }),
  },
  RayService: {
    groups: ['ray.io'],
    extract: (root) => ({
      type: 'inference',
      groups: rayGroups(mapGet(spec(root), 'rayClusterConfig')),
      labelHolders: [mapGet(root, 'metadata')],
    }),
  },
  PyTorchJob: kubeflowJob('pytorchReplicaSpecs'),
  TFJob: kubeflowJob('tfReplicaSpecs'),
  MPIJob: kubeflowJob('mpiReplicaSpecs'),
  XGBoostJob: kubeflowJob('xgbReplicaSpecs'),
  PaddleJob: kubeflowJob('paddleReplicaSpecs'),
  JAXJob: kubeflowJob('jaxReplicaSpecs'),
  TrainJob: {
    groups: ['trainer.kubeflow.org'],
    extract: (root) => {
      const trainer = mapGet(spec(root), 'trainer');
      // A TrainJob states its per-node resources directly; there is no pod template to read.
      return {
        type: 'training',
        groups: [
          {
            role: 'node',
            podSpec: null,
            resources: mapGet(trainer, 'resourcesPerNode'),
            pods: countField(trainer, 'numNodes', 1),
            at: trainer,
          },
        ],
        labelHolders: [mapGet(root, 'metadata')],
      };
    },
  },
  LeaderWorkerSet: {
    groups: ['leaderworkerset.x-k8s.io'],
    extract: (root) => {
      const lwt = mapGet(spec(root), 'leaderWorkerTemplate');
      const replicas = countField(spec(root), 'replicas', 1);
      const size = countField(lwt, 'size', 1);
      const worker = podOf(mapGet(lwt, 'workerTemplate'));
      const leaderTemplate = mapGet(lwt, 'leaderTemplate');
      const groups: RawGroup[] =
        leaderTemplate === undefined
          ? [{ role: 'worker', podSpec: worker, pods: replicas === null || size === null ? null : replicas * size, at: lwt }]
          : [
              { role: 'leader', podSpec: podOf(leaderTemplate), pods: replicas, at: lwt },
              { role: 'worker', podSpec: worker, pods: replicas === null || size === null ? null : replicas * (size - 1), at: lwt },
            ];
      return { type: 'inference', groups, labelHolders: [mapGet(root, 'metadata')] };
    },
  },
  Deployment: { groups: ['apps'], extract: (root) => templated(root, 'inference') },
  StatefulSet: { groups: ['apps'], extract: (root) => templated(root, 'inference') },
  InferenceService: {
    groups: ['serving.kserve.io'],
    extract: (root) => {
      const predictor = mapGet(spec(root), 'predictor');
      // The replicas it may scale to: its maxReplicas, else minReplicas, else one.
      const max = countField(predictor, 'maxReplicas', 0);
      const pods = max !== null && max > 0 ? max : countField(predictor, 'minReplicas', 1);
      const model = mapGet(predictor, 'model');
      // The predictor is itself a pod spec (containers, nodeSelector); a `model:` states its own resources.
      return {
        type: 'inference',
        groups: [
          {
            role: 'predictor',
            podSpec: predictor,
            ...(model === undefined ? {} : { resources: mapGet(model, 'resources') }),
            pods,
            at: predictor,
          },
        ],
        labelHolders: [mapGet(root, 'metadata')],
      };
    },
  },
};

function templated(root: unknown, type: RawWorkload['type']): RawWorkload {
  return {
    type,
    groups: [
      { role: 'replica', podSpec: podOf(mapGet(spec(root), 'template')), pods: countField(spec(root), 'replicas', 1), at: spec(root) },
    ],
    labelHolders: [mapGet(root, 'metadata'), mapGet(mapGet(spec(root), 'template'), 'metadata')],
  };
}
