import { describe, expect, it } from 'vitest';
import { gpusOf } from '../../src/domain/index.js';
import { WORKLOAD_KINDS } from '../../src/workloads/manifests/kinds.js';
import { declaredWorkloads } from '../../src/workloads/manifests/read-workloads.js';

const cronJob = (extra = '') => `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly-eval
  namespace: eval
spec:
  schedule: "0 2 * * *"
  timeZone: Europe/Paris
  jobTemplate:
    metadata:
      labels:
        kueue.x-k8s.io/queue-name: research
    spec:
      parallelism: 4
      activeDeadlineSeconds: 7200
      template:
        spec:
          nodeSelector:
            karpenter.sh/nodepool: a100
${extra}          containers:
            - name: eval
              resources:
                limits:
                  nvidia.com/gpu: 2
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata:
  name: research
  namespace: eval
spec:
  clusterQueue: research-cq
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata:
  name: research
  namespace: other
spec:
  clusterQueue: someone-elses
`;

/** One small manifest per kind in the registry, with the GPUs it holds worked out by hand. */
const SAMPLES: Record<string, { text: string; gpus: number }> = {
  CronJob: { text: cronJob(), gpus: 8 },
  Job: {
    text: 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n      containers:\n        - resources: {requests: {nvidia.com/gpu: "1"}}\n',
    gpus: 1,
  },
  JobSet: {
    text: `apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js}
spec:
  replicatedJobs:
    - name: workers
      replicas: 2
      template:
        spec:
          parallelism: 4
          template:
            spec:
              containers:
                - resources: {limits: {nvidia.com/gpu: 8}}
`,
    gpus: 64,
  },
  RayJob: {
    text: `apiVersion: ray.io/v1
kind: RayJob
metadata: {name: rj}
spec:
  rayClusterSpec:
    headGroupSpec:
      template: {spec: {containers: [{resources: {limits: {nvidia.com/gpu: 1}}}]}}
    workerGroupSpecs:
      - groupName: w
        replicas: 3
        template: {spec: {containers: [{resources: {limits: {nvidia.com/gpu: 2}}}]}}
`,
    gpus: 7,
  },
  RayCluster: {
    text: `apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc}
spec:
  workerGroupSpecs:
    - replicas: 2
      template: {spec: {containers: [{resources: {limits: {amd.com/gpu: 4}}}]}}
`,
    gpus: 8,
  },
  PyTorchJob: {
    text: `apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template: {spec: {containers: [{resources: {limits: {nvidia.com/gpu: 8}}}]}}
    Worker:
      replicas: 3
      template: {spec: {containers: [{resources: {limits: {nvidia.com/gpu: 8}}}]}}
`,
    gpus: 32,
  },
  ...Object.fromEntries(
    (
      [
        ['TFJob', 'tfReplicaSpecs', 'PS'],
        ['MPIJob', 'mpiReplicaSpecs', 'Launcher'],
        ['XGBoostJob', 'xgbReplicaSpecs', 'Master'],
        ['PaddleJob', 'paddleReplicaSpecs', 'Master'],
        ['JAXJob', 'jaxReplicaSpecs', 'Master'],
      ] as const
    ).map(([kind, field, first]) => [
      kind,
      {
        // The first group asks for no GPU (a launcher, a parameter server): only the workers count.
        text: `apiVersion: ${kind === 'MPIJob' ? 'kubeflow.org/v2beta1' : 'kubeflow.org/v1'}
kind: ${kind}
metadata: {name: ${kind.toLowerCase()}}
spec:
  ${field}:
    ${first}:
      replicas: 1
      template: {spec: {containers: [{resources: {limits: {cpu: 2}}}]}}
    Worker:
      replicas: 2
      template: {spec: {containers: [{resources: {limits: {nvidia.com/gpu: 4}}}]}}
`,
        gpus: 8,
      },
    ]),
  ),
  RayService: {
    text: `apiVersion: ray.io/v1
kind: RayService
metadata: {name: llm}
spec:
  serveConfigV2: |
    applications: []
  rayClusterConfig:
    headGroupSpec:
      template: {spec: {containers: [{resources: {limits: {cpu: 4}}}]}}
    workerGroupSpecs:
      - groupName: gpu
        replicas: 1
        maxReplicas: 3
        template: {spec: {containers: [{resources: {limits: {nvidia.com/gpu: 2}}}]}}
`,
    gpus: 6,
  },
  TrainJob: {
    text: `apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: tj}
spec:
  trainer:
    numNodes: 2
    resourcesPerNode:
      limits: {nvidia.com/gpu: 4}
`,
    gpus: 8,
  },
  LeaderWorkerSet: {
    text: `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: lws}
spec:
  replicas: 3
  leaderWorkerTemplate:
    size: 2
    workerTemplate: {spec: {containers: [{resources: {limits: {nvidia.com/gpu: 1}}}]}}
`,
    gpus: 6,
  },
  Deployment: {
    text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 3\n  template: {spec: {containers: [{resources: {limits: {nvidia.com/gpu: 1}}}]}}\n',
    gpus: 3,
  },
  StatefulSet: {
    text: 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  template: {spec: {containers: [{resources: {limits: {nvidia.com/gpu: 2}}}]}}\n',
    gpus: 2,
  },
  InferenceService: {
    text: `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: isvc}
spec:
  predictor:
    minReplicas: 1
    maxReplicas: 3
    model:
      modelFormat: {name: huggingface}
      resources: {limits: {nvidia.com/gpu: "1"}}
`,
    gpus: 3,
  },
};

describe('every workload kind the reader knows', () => {
  it.each(Object.keys(WORKLOAD_KINDS))('%s: its GPUs and pods are read', (kind) => {
    const sample = SAMPLES[kind];
    expect(sample, `add a ${kind} sample`).toBeDefined();
    const { workloads } = declaredWorkloads([{ path: `${kind}.yaml`, text: sample?.text ?? '' }]);
    expect(workloads.map((w) => [w.kind, gpusOf(w)])).toEqual([[kind, sample?.gpus]]);
  });

  it('a kind of another API group with the same name is not read', () => {
    const text = (SAMPLES.Deployment?.text ?? '').replace('apps/v1', 'example.com/v1');
    expect(declaredWorkloads([{ path: 'd.yaml', text }]).workloads).toEqual([]);
  });

  it('a CronJob: its schedule and time zone, its run bound, its queue in its own namespace, its pool', () => {
    const [w] = declaredWorkloads([{ path: 'cron.yaml', text: cronJob() }]).workloads;
    expect(w?.schedule).toEqual({ cron: '0 2 * * *', timeZone: 'Europe/Paris', source: { file: 'cron.yaml', line: 7 } });
    expect(w?.maxRuntimeMinutes).toEqual({ value: 120, source: { file: 'cron.yaml', line: 15 } });
    expect(w?.clusterQueue).toEqual({ name: 'research-cq', source: { file: 'cron.yaml', line: 32 } });
    expect(w?.pool).toEqual({ name: 'a100', label: 'karpenter.sh/nodepool', source: { file: 'cron.yaml', line: 19 } });
  });

  it('a required node affinity with one value pins a pool; with a choice of values it does not', () => {
    const affinity = (values: string) => `          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                  - matchExpressions:
                      - {key: cloud.google.com/gke-nodepool, operator: In, values: [${values}]}
`;
    const pinned = cronJob(affinity('gpu-pool')).replace('          nodeSelector:\n            karpenter.sh/nodepool: a100\n', '');
    expect(declaredWorkloads([{ path: 'a.yaml', text: pinned }]).workloads[0]?.pool?.name).toBe('gpu-pool');
    const either = cronJob(affinity('a, b')).replace('          nodeSelector:\n            karpenter.sh/nodepool: a100\n', '');
    expect(declaredWorkloads([{ path: 'a.yaml', text: either }]).workloads[0]?.pool).toBeNull();
  });

  it('pods that ask for no GPU, and files with no GPU at all, declare no workload', () => {
    const cpu = (SAMPLES.Deployment?.text ?? '').replace('nvidia.com/gpu: 1', 'cpu: 1');
    expect(
      declaredWorkloads([
        { path: 'cpu.yaml', text: cpu },
        { path: 'README.md', text: '# nvidia.com/gpu' },
      ]).workloads,
    ).toEqual([]);
  });

  it('a replica count that is not a number is a warning naming the file and line, not a guess', () => {
    const text = (SAMPLES.Deployment?.text ?? '').replace('replicas: 3', 'replicas: "{{ .Values.replicas }}"');
    const { workloads, diagnostics } = declaredWorkloads([{ path: 'd.yaml', text }]);
    expect(workloads).toEqual([]);
    expect(diagnostics.map((d) => [d.file, d.line, d.severity])).toEqual([['d.yaml', 5, 'warning']]);
    expect(diagnostics[0]?.message).toMatch(/pod count is not a number/);
  });
});

describe('files with no workload kind', () => {
  it('are not parsed, however often they name a GPU resource; CRLF files still are', () => {
    const queues = Array.from(
      { length: 3 },
      (_, i) => `kind: ClusterQueue\nmetadata: {name: q${i}}\nspec: {resourceGroups: [{coveredResources: [nvidia.com/gpu]}]}`,
    ).join('\n---\n');
    // A broken document would be a diagnostic if the file were parsed.
    expect(declaredWorkloads([{ path: 'queues.yaml', text: `${queues}\n---\nnvidia.com/gpu: [broken` }])).toEqual({
      workloads: [],
      diagnostics: [],
    });
    const job =
      'apiVersion: batch/v1\r\nkind: Job\r\nmetadata:\r\n  name: train\r\nspec:\r\n  template:\r\n    spec:\r\n      containers:\r\n        - name: t\r\n          resources:\r\n            limits:\r\n              nvidia.com/gpu: 2\r\n';
    expect(declaredWorkloads([{ path: 'job.yaml', text: job }]).workloads.map((w) => w.name)).toEqual(['train']);
  });
});
