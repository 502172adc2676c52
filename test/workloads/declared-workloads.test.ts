import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gpusOf } from '../../src/domain/index.js';
import type { DeclaredWorkload } from '../../src/domain/index.js';
import { declaredWorkloads } from '../../src/workloads/manifests/read-workloads.js';

const REAL = fileURLToPath(new URL('./fixtures/real', import.meta.url));

function realFiles(dir: string): { path: string; text: string }[] {
  return readdirSync(path.join(REAL, dir)).flatMap((name) => {
    const full = path.join(REAL, dir, name);
    if (statSync(full).isDirectory()) return realFiles(path.join(dir, name));
    return name.endsWith('.yaml') ? [{ path: path.posix.join(dir, name), text: readFileSync(full, 'utf8') }] : [];
  });
}

/** What a reader of the manifests needs at a glance: name, kind, GPUs by group, links. */
function summary(w: DeclaredWorkload) {
  return {
    name: w.name,
    kind: w.kind,
    type: w.type,
    gpus: gpusOf(w),
    groups: w.groups.map((g) => `${g.role}: ${g.pods} × ${g.gpusPerPod}`),
    localQueue: w.localQueue?.name ?? null,
    clusterQueue: w.clusterQueue?.name ?? null,
    pool: w.pool ? `${w.pool.label}=${w.pool.name}` : null,
  };
}

describe('GPU workloads declared in real manifests', () => {
  it('Kueue samples: a Job by generateName and an LWS whose leader asks no GPU, each to its ClusterQueue', () => {
    const { workloads, diagnostics } = declaredWorkloads(realFiles('kueue'));
    expect(diagnostics).toEqual([]);
    expect(workloads.map(summary)).toEqual([
      // parallelism 3 × limits nvidia.com/gpu 1; LocalQueue default/user-queue → cluster-queue.
      {
        name: 'sample-job',
        kind: 'Job',
        type: 'batch',
        gpus: 3,
        groups: ['job: 3 × 1'],
        localQueue: 'user-queue',
        clusterQueue: 'cluster-queue',
        pool: null,
      },
      // replicas 2 × (size 3 − the leader) workers × 1 GPU; the leader asks for CPU alone.
      {
        name: 'nginx-leaderworkerset',
        kind: 'LeaderWorkerSet',
        type: 'inference',
        gpus: 4,
        groups: ['worker: 4 × 1'],
        localQueue: 'tas-user-queue',
        clusterQueue: 'tas-cluster-queue',
        pool: null,
      },
    ]);
    const job = workloads[0];
    expect(job?.source).toEqual({ file: 'kueue/provisioning-sample-job.yaml', line: 1 });
    expect(job?.clusterQueue?.source.file).toBe('kueue/provisioning-provisioning-setup.yaml');
  });

  it('GKE samples: a fine-tuning Job and two servers sharing a queue, a Ray worker group at its maximum, a multi-host LWS', () => {
    const { workloads, diagnostics } = declaredWorkloads(realFiles('gke-samples'));
    expect(diagnostics).toEqual([]);
    expect(workloads.map(summary)).toEqual([
      // leader 8 GPUs + (size 2 − 1) worker × 8 GPUs, one replica.
      {
        name: 'vllm',
        kind: 'LeaderWorkerSet',
        type: 'inference',
        gpus: 16,
        groups: ['leader: 1 × 8', 'worker: 1 × 8'],
        localQueue: null,
        clusterQueue: null,
        pool: null,
      },
      {
        name: 'finetune-gemma-l4',
        kind: 'Job',
        type: 'batch',
        gpus: 4,
        groups: ['job: 2 × 2'],
        localQueue: 'lq',
        clusterQueue: 'cluster-queue',
        pool: null,
      },
      // The queue label sits on the pod template, where Kueue's pod integration reads it.
      {
        name: 'tgi-gemma-deployment',
        kind: 'Deployment',
        type: 'inference',
        gpus: 2,
        groups: ['replica: 1 × 2'],
        localQueue: 'lq',
        clusterQueue: 'cluster-queue',
        pool: null,
      },
      {
        name: 'vllm-gemma-deployment',
        kind: 'Deployment',
        type: 'inference',
        gpus: 2,
        groups: ['replica: 1 × 2'],
        localQueue: 'lq',
        clusterQueue: 'cluster-queue',
        pool: null,
      },
      // minReplicas 1, replicas 1, maxReplicas 4: the most it can hold is 4 × 1 L4.
      {
        name: 'stable-diffusion-cluster',
        kind: 'RayCluster',
        type: 'inference',
        gpus: 4,
        groups: ['gpu-group: 4 × 1'],
        localQueue: null,
        clusterQueue: null,
        pool: null,
      },
    ]);
  });
});

describe('real repositories: what init got wrong before', () => {
  it('kueue docs: each workload reaches the LocalQueue where it runs, of copies in other folders and namespaces', () => {
    const { workloads, diagnostics } = declaredWorkloads(realFiles('kueue-site'));
    expect(diagnostics).toEqual([]);
    expect(
      workloads.map((w) => [
        w.source.file,
        w.namespace,
        w.clusterQueue?.name ?? null,
        w.clusterQueue?.source.file ?? null,
        w.queueLookup?.code,
      ]),
    ).toEqual([
      // default/user-queue is in two folders, to two ClusterQueues: the one beside the Job.
      [
        'kueue-site/examples/provisioning/sample-job.yaml',
        'default',
        'cluster-queue',
        'kueue-site/examples/provisioning/provisioning-setup.yaml',
        'nearest',
      ],
      // Three LocalQueues named user-queue, one in its namespace (and its v0.18 copy, which agrees).
      [
        'kueue-site/examples/serving-workloads/sample-hami.yaml',
        'kueue-test',
        'hami-queue',
        'kueue-site/examples/serving-workloads/sample-hami.yaml',
        'namespace',
      ],
      [
        'kueue-site/v0.18/examples/serving-workloads/sample-hami.yaml',
        'kueue-test',
        'hami-queue',
        'kueue-site/v0.18/examples/serving-workloads/sample-hami.yaml',
        'namespace',
      ],
    ]);
  });

  it('kuberay: a RayService at its worker group maximum', () => {
    const { workloads } = declaredWorkloads(realFiles('kuberay'));
    expect(workloads.map(summary)).toEqual([
      {
        name: 'stable-diffusion',
        kind: 'RayService',
        type: 'inference',
        gpus: 10,
        groups: ['gpu-group: 10 × 1'],
        localQueue: null,
        clusterQueue: null,
        pool: null,
      },
    ]);
  });

  it("awsome-distributed-training: an MPIJob's workers; a templated PyTorchJob named, not dropped in silence", () => {
    const { workloads, diagnostics } = declaredWorkloads(realFiles('awsome-distributed-training'));
    expect(workloads.map((w) => [w.name, w.kind, gpusOf(w)])).toEqual([['nccl-tests', 'MPIJob', 16]]);
    expect(diagnostics.map((d) => [d.file, d.line, d.severity, d.message])).toEqual([
      [
        'awsome-distributed-training/llama3_1_8b-fsdp.yaml',
        45,
        'warning',
        "PyTorchJob llama3-1-8b-fsdp: the Worker pods' GPU count is not a number; its GPUs are not counted",
      ],
    ]);
  });
});
