import { describe, expect, it } from 'vitest';
import { changeRows, detectPr, edited, lineIn, loadReal } from './real-fixtures.js';
import type { Edit } from './real-fixtures.js';

/**
 * Kubernetes manifests from public repositories (fixtures/real/SOURCES.md), run as pull
 * requests: the file as published is the base, the head grows its GPUs or edits something else.
 */
async function pr(file: string, edits: Edit[]) {
  const base = loadReal(file);
  const head = edited(base, edits);
  return { text: head[file], result: await detectPr(base, head) };
}

describe('Cluster API managed machine pools', () => {
  const file = 'cluster-api/capa-eks-managedmachinepool-gpu-excerpt.yaml';

  it('MachinePool → AWSManagedMachinePool g4dn.xlarge: templated replicas is unknown, named with the GPUs per node', async () => {
    const { text, result } = await pr(file, [[file, 'v1.7.5-eksbuild.1', 'v1.8.0-eksbuild.1']]);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      {
        file,
        line: lineIn(text, 'replicas:'),
        severity: 'warning',
        message:
          'MachinePool ${CLUSTER_NAME}-pool-0: replicas is the template expression ${WORKER_MACHINE_COUNT}, unknown until rendered; with 1 GPUs per node (instanceType g4dn.xlarge) its GPUs are not counted',
      },
    ]);
  });

  it('pinning replicas is reported as a change of unknown size, never from 0', async () => {
    const { result } = await pr(file, [[file, 'replicas: ${WORKER_MACHINE_COUNT}', 'replicas: 4']]);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('could not be read, so the change is unknown; it is now 4 GPUs'),
    ]);
  });

  it('a managed pool scaling maximum bounds the pool; raising it is a change at its line', async () => {
    const pinned: Edit[] = [
      [file, 'replicas: ${WORKER_MACHINE_COUNT}', 'replicas: 2'],
      [file, 'instanceType: "g4dn.xlarge"', 'instanceType: "g4dn.12xlarge"\n  scaling:\n    minSize: 0\n    maxSize: 3'],
    ];
    const base = edited(loadReal(file), pinned);
    const head = edited(base, [[file, 'maxSize: 3', 'maxSize: 5']]);
    const result = await detectPr(base, head);
    expect(changeRows(result)).toEqual([
      ['capi-machinedeployment', '${CLUSTER_NAME}-pool-0', 12, 20, 'T4', file, lineIn(head[file], 'maxSize: 5')],
    ]);
  });
});

describe('Karpenter NodePools in real files', () => {
  it('a templated instance type in a static pool is named as the template, not as masked text', async () => {
    const file = 'karpenter/ai-on-eks-gpu-p-static.yaml';
    const { text, result } = await pr(file, [[file, 'replicas: 0', 'replicas: 2']]);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        line: lineIn(text, 'replicas: 2'),
        message:
          'NodePool gpu-${replace(instance_type, ".", "-")}-static: static pool of 2 nodes, but the instance type is the template expression ${instance_type}, unknown until rendered; its GPU count is unknown',
      }),
    ]);
  });

  it.each(['karpenter/ai-on-eks-gpu.yaml', 'karpenter/ai-on-eks-auto-mode-gpu.yaml'])(
    '%s: GPU category, no GPU limit: unbounded, said once, no change on an unrelated edit',
    async (file) => {
      const { text, result } = await pr(file, [[file, 'consolidateAfter: 300s', 'consolidateAfter: 600s']]);
      expect(result.changes).toEqual([]);
      expect(result.diagnostics).toEqual([
        {
          file,
          line: lineIn(text, 'apiVersion: karpenter.sh/v1'),
          severity: 'warning',
          message: 'NodePool gpu: no nvidia.com/gpu limit: the pool can grow without bound (GPU instances allowed)',
        },
      ]);
    },
  );

  it('EKS Auto Mode pool limited by CPU only: unbounded GPUs are a warning; adding a GPU limit is flagged as of unknown size', async () => {
    const file = 'karpenter/eks-automode-gpu-nodepool.yaml.tpl';
    const unrelated = await pr(file, [[file, 'consolidateAfter: 30s', 'consolidateAfter: 60s']]);
    expect(unrelated.result.changes).toEqual([]);
    expect(unrelated.result.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining(
        'no nvidia.com/gpu limit: the pool can grow without bound (GPU instances allowed: families g3, g4, g5, g6, p3, p4, p5)',
      ),
    ]);
    const limited = await pr(file, [[file, '    cpu: 1000\n', '    cpu: 1000\n    nvidia.com/gpu: 8\n']]);
    expect(limited.result.changes).toEqual([]);
    expect(limited.result.diagnostics).toEqual([
      {
        file,
        line: lineIn(limited.text, 'nvidia.com/gpu: 8'),
        severity: 'warning',
        message: `gpu-nodepool: the pool was unbounded before this change (no nvidia.com/gpu limit at ${file}:${lineIn(limited.text, 'apiVersion: karpenter.sh/v1')}); it is now limited to 8 GPUs`,
      },
    ]);
  });
});

describe('eksctl, KAITO, Kueue and GPU sharing in real files', () => {
  it('eksctl g5.8xlarge: maxSize 10 → 16 and a bigger instance size', async () => {
    const file = 'eksctl/awsome-dt-eks-g5-node-autorepair.yaml';
    const grow = await pr(file, [[file, 'maxSize: 10', 'maxSize: 16']]);
    expect(changeRows(grow.result)).toEqual([['eksctl-nodegroup', 'g5', 10, 16, 'A10G', file, lineIn(grow.text, 'maxSize: 16')]]);
    const bigger = await pr(file, [[file, 'g5.8xlarge', 'g5.48xlarge']]);
    expect(changeRows(bigger.result).map((r) => r.slice(2, 5))).toEqual([[10, 80, 'A10G']]);
    expect((await pr(file, [[file, 'version: "1.32"', 'version: "1.33"']])).result).toMatchObject({ changes: [], diagnostics: [] });
  });

  it('KAITO Workspace without resource.count: a bigger VM size is reported at the instanceType line', async () => {
    const file = 'kaito/kaito-workspace-gpt-oss-120b.yaml';
    const { text, result } = await pr(file, [[file, 'Standard_NC24ads_A100_v4', 'Standard_NC96ads_A100_v4']]);
    expect(changeRows(result)).toEqual([['aks-node-pool', 'workspace-gpt-oss-120b', 1, 4, 'A100', file, lineIn(text, 'instanceType')]]);
  });

  it('KAITO InferenceSet: replicas × the template VM size; nodeCountLimit caps it', async () => {
    const file = 'kaito/kaito-inferenceset-llama-3.1-8b.yaml';
    const grow = await pr(file, [[file, 'replicas: 2', 'replicas: 4']]);
    expect(changeRows(grow.result)).toEqual([['aks-node-pool', 'llama-3-1-8b', 2, 4, 'A100', file, lineIn(grow.text, 'replicas: 4')]]);
    const capped = await pr(file, [[file, 'replicas: 2', 'replicas: 12']]);
    expect(changeRows(capped.result)).toEqual([
      ['aks-node-pool', 'llama-3-1-8b', 2, 10, 'A100', file, lineIn(capped.text, 'nodeCountLimit')],
    ]);
    expect(capped.result.diagnostics.map((d) => d.message)).toEqual([
      'InferenceSet llama-3-1-8b: 12 replicas × 1 nodes, capped at nodeCountLimit 10',
    ]);
  });

  it('a KAITO MIG Workspace on existing nodes provisions nothing', async () => {
    const file = 'kaito/kaito-workspace-mig.yaml';
    expect((await pr(file, [[file, 'count: 1', 'count: 2']])).result).toMatchObject({ changes: [], diagnostics: [] });
  });

  it('Kueue with HAMi: only nvidia.com/gpu counts, gpucores and the Deployment do not', async () => {
    const file = 'kueue/kueue-hami-gpucores.yaml';
    const grow = await pr(file, [[file, 'nominalQuota: 20\n', 'nominalQuota: 40\n']]);
    expect(changeRows(grow.result)).toEqual([
      ['kueue-cluster-queue', 'hami-queue', 20, 40, null, file, lineIn(grow.text, 'nominalQuota: 40')],
    ]);
    expect((await pr(file, [[file, 'nominalQuota: 300', 'nominalQuota: 600']])).result.changes).toEqual([]);
    expect((await pr(file, [[file, 'replicas: 3', 'replicas: 6']])).result.changes).toEqual([]);
  });

  it('Kueue DRA gpu.memory is memory, not GPUs; the DWS "infinite" GPU quota is read as written', async () => {
    const dra = 'kueue/kueue-dra-capacity-queues.yaml';
    const draPr = await pr(dra, [[dra, '800Gi', '1600Gi']]);
    // Not counted, but said: the quota is on GPU memory through DRA, not on GPUs.
    expect(draPr.result).toEqual({
      changes: [],
      diagnostics: [
        {
          file: dra,
          line: lineIn(draPr.text, 'nominalQuota: 1600Gi'),
          severity: 'warning',
          message:
            'ClusterQueue cluster-queue, flavor default-flavor: gpu.memory carries no domain, so pods do not request it as a resource (they request e.g. nvidia.com/gpu): it is a DRA device class or device capacity that Kueue maps, or a name no workload uses; its quota 1600Gi is not counted as GPUs',
        },
      ],
      // Read: a quota on GPU memory is no GPU count, and the warning says so.
      coverage: [{ file: dra, state: 'read', objects: 0 }],
      // No ClusterQueue of GPUs is declared on either side.
      declarations: { base: [], head: [] },
    });
    const dws = 'kueue/kueue-multikueue-gke-tas-dws-worker-setup.yaml';
    const r = await pr(dws, [
      [dws, 'nominalQuota: 10000  # Infinite quota.\n  admissionChecks', 'nominalQuota: 20000  # Infinite quota.\n  admissionChecks'],
    ]);
    expect(changeRows(r.result).map((x) => x.slice(1, 4))).toEqual([['dws-cluster-queue', 10000, 20000]]);
  });

  it('time-slicing ConfigMap with several profiles: only the edited profile changes', async () => {
    const file = 'gpu-sharing/hpcgame-gpu-time-slicing-config.yaml';
    const { text, result } = await pr(file, [[file, 'replicas: 4', 'replicas: 6']]);
    expect(changeRows(result)).toEqual([
      ['gpu-sharing', 'gpu-time-slicing-config/a100-80gb-shared', 4, 6, null, file, lineIn(text, 'replicas: 6')],
    ]);
    const unrelated = await pr(file, [[file, 'namespace: gpu-operator', 'namespace: nvidia-gpu-operator']]);
    expect(unrelated.result.changes).toEqual([]);
    expect(unrelated.result.diagnostics.every((d) => d.severity === 'info')).toBe(true);
  });
});
