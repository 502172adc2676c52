import { describe, expect, it } from 'vitest';
import { detectFile } from '../../src/detect/detect-file.js';
import type { CapacityKind } from '../../src/domain/index.js';
import { corpusFiles } from './corpus.js';

/**
 * What SOURCES.md says each non-Kueue, non-Terraform corpus file declares, as the detectors
 * should read it: countable declarations, declarations present but not countable (with the
 * diagnostic that says why), and other diagnostics that must be there.
 */
interface Expectation {
  decls: [kind: CapacityKind, name: string, gpus: number, gpuModel?: string | null][];
  unresolved?: [kind: CapacityKind, name: string][];
  /** [severity, line, text the message must contain] */
  notes?: ['warning' | 'info', number, string][];
}

const EXPECTED: Record<string, Expectation> = {
  // "limits nvidia.com/gpu: 8 (int) and cpu: "1000" (string)"; families g5/g6/g6e/g7e: mixed models
  'karpenter/data-on-eks-nodepool-gpu-g6.yaml': { decls: [['karpenter-nodepool', 'gpu', 8, null]] },
  // "limits cpu: 1000 only (no nvidia.com/gpu limit)" for both GPU pools in HCL heredocs
  'karpenter/ai-on-eks-addons-karpenter-heredoc.tf': {
    decls: [],
    unresolved: [
      ['karpenter-nodepool', 'g6-gpu-karpenter'],
      ['karpenter-nodepool', 'g5-gpu-karpenter'],
    ],
    notes: [
      ['warning', 362, 'no nvidia.com/gpu limit: the pool can grow without bound'],
      ['warning', 416, 'can grow without bound'],
    ],
  },
  // "NodePool fractional-gpu limits nvidia.com/gpu "4" (string)" on g6f (fractional L4)
  'karpenter/karpenter-docs-nodeoverlay-g6f-excerpt.md': { decls: [['karpenter-nodepool', 'fractional-gpu', 4, 'L4']] },
  // "static NodePool (spec.replicas: 10) with limits nvidia.com/gpu: 2": no type pinned, the limit caps it
  'karpenter/karpenter-docs-static-nodepool-limits-excerpt.md': {
    decls: [['karpenter-nodepool', 'default', 2, null]],
    notes: [['info', 28, 'static pool of 10 nodes']],
  },
  // "v1alpha5 Provisioner … instance-family g5 (GPU implied by family), no limits"; ${azs} breaks plain YAML
  'karpenter/data-on-eks-v1alpha5-provisioner-g5.yaml': {
    decls: [],
    unresolved: [['karpenter-nodepool', 'spark-ubuntu-gpu-karpenter']],
    notes: [['warning', 3, 'can grow without bound']],
  },
  // "spec.limits.resources nvidia.com/gpu: 2"; "second Provisioner 'gpu' pinned to p3.8xlarge/p3.16xlarge" without a limit
  'karpenter/karpenter-docs-v0.31-provisioner-limits-excerpt.md': {
    decls: [['karpenter-nodepool', 'default', 2, null]],
    unresolved: [['karpenter-nodepool', 'gpu']],
    notes: [['warning', 55, 'p3.8xlarge, p3.16xlarge']],
  },
  // "static NodePool … spec.replicas 2 of instance-family g6e (GPU count implied by instance type)"
  'karpenter/eks-automode-static-gpu-nodepool.yaml.tpl': {
    decls: [],
    unresolved: [['karpenter-nodepool', 'static-gpu-nodepool']],
    notes: [['warning', 26, 'static pool of 2 nodes, but the instance type is not pinned: families g6e, 1–8 GPUs per node']],
  },
  // "p4de-odcr instanceType p4de.24xlarge (8x A100 80GB), … maxSize 10"
  'eksctl/awsome-dt-eks-p4de-odcr.yaml': { decls: [['eksctl-nodegroup', 'p4de-odcr', 80, 'A100']] },
  // "p5-cbr: p5.48xlarge (8x H100), … maxSize 10"
  'eksctl/awsome-dt-eks-p5-capacity-block.yaml': { decls: [['eksctl-nodegroup', 'p5-cbr', 80, 'H100']] },
  // "g5.xlarge (max 10), p3.2xlarge (max 10), p3.8xlarge (max 4 x 4 GPUs), p3dn.24xlarge (max 1 x 8 GPUs)"
  'eksctl/eksctl-example-23-kubeflow-spot-gpu.yaml': {
    decls: [
      ['eksctl-nodegroup', '1-gpu-spot-g5-xlarge', 10, 'A10G'],
      ['eksctl-nodegroup', '1-gpu-spot-p3-2xlarge', 10, 'V100'],
      ['eksctl-nodegroup', '4-gpu-spot-p3-8xlarge', 16, 'V100'],
      ['eksctl-nodegroup', '8-gpu-spot-p3dn-24xlarge', 8, 'V100'],
    ],
  },
  // "replicas: ${WORKER_MACHINE_COUNT:=2} + vmSize: ${AZURE_GPU_NODE_MACHINE_TYPE:=Standard_NV12s_v3}"
  'cluster-api/capz-prow-nvidia-gpu-cluster-template.yaml': {
    decls: [],
    unresolved: [['capi-machinedeployment', '${CLUSTER_NAME}-md-0']],
    notes: [['warning', 163, '${WORKER_MACHINE_COUNT:=2} (default 2)']],
  },
  // "vmSize: ${AZURE_NODE_MACHINE_TYPE} with no default (GPU SKU only known from docs)"
  'cluster-api/capz-flavor-nvidia-gpu-machine-deployment.yaml': {
    decls: [],
    unresolved: [['capi-machinedeployment', '${CLUSTER_NAME}-md-0']],
    notes: [['warning', 2, '${AZURE_NODE_MACHINE_TYPE}']],
  },
  // "max-size "5" and gpu-count: "2" … => up to 10 GPUs"; the block's // lines are not YAML
  'cluster-api/cluster-autoscaler-capi-scale-from-zero-gpu-excerpt.md': {
    decls: [['capi-machinedeployment', '(unnamed)', 10, null]],
  },
  // "machineDeployments[].replicas: 2 … workerMachineDetails.gpus: [{type: name, name: fake-gpu}] => 1 GPU per worker"
  'cluster-api/capx-clusterclass-topology-with-gpu.yaml': {
    decls: [['capi-machinedeployment', 'cluster-with-gpu/md-0', 2, null]],
    notes: [['info', 62, 'topology variables']],
  },
  // "guestAccelerator [{type: nvidia-tesla-t4, count: 1}], autoscaling … maxNodeCount 3 (zonal) => 1-3 T4"
  'gke-config-connector/kcc-containernodepool-basic-t4.yaml': {
    decls: [['gke-node-pool', 'containernodepool-sample-basic', 3, 'T4']],
  },
  // "guest_accelerator … count 8, static_node_count $(vars.static_node_count) (empty in vars)"
  'cluster-toolkit/cluster-toolkit-gke-a3-megagpu-blueprint.yaml': {
    decls: [],
    unresolved: [['gke-node-pool', 'a3_megagpu_pool']],
    notes: [['warning', 133, '$(vars.static_node_count)']],
  },
  // "resource.count 2 x instanceType Standard_NC48ads_A100_v4 (2x A100 each) => … 4 GPUs"
  'kaito/kaito-workspace-llama-3.3-70b-nc48ads-a100.yaml': {
    decls: [['aks-node-pool', 'workspace-llama-3-3-70b-instruct', 4, 'A100']],
  },
  // "timeSlicing … replicas: 10 => advertised nvidia.com/gpu = physical x 10"
  'gpu-sharing/gpu-operator-tests-plugin-config-timeslicing.yaml': {
    decls: [['gpu-sharing', 'gpu-operator-tests-plugin-config-timeslicing.yaml', 10]],
    notes: [['info', 7, 'not the hardware']],
  },
  // "8 GPUs x replicas 10 => 80": the two readable examples (time-slicing, MPS); `<bool>` skeletons are not YAML
  'gpu-sharing/k8s-device-plugin-readme-sharing-excerpt.md': {
    decls: [
      ['gpu-sharing', 'k8s-device-plugin-readme-sharing-excerpt.md#1', 10],
      ['gpu-sharing', 'k8s-device-plugin-readme-sharing-excerpt.md#2', 10],
    ],
  },
  // "all-1g.5gb = 7 slices/GPU, all-3g.20gb = 2/GPU, … custom-config per device index"
  'gpu-sharing/mig-parted-examples-config.yaml': {
    decls: [
      ['gpu-sharing', 'mig-parted/all-disabled', 1],
      ['gpu-sharing', 'mig-parted/all-enabled', 0],
      ['gpu-sharing', 'mig-parted/all-1g.5gb', 7],
      ['gpu-sharing', 'mig-parted/all-1g.5gb.me', 1],
      ['gpu-sharing', 'mig-parted/all-1g.10gb', 4],
      ['gpu-sharing', 'mig-parted/all-2g.10gb', 3],
      ['gpu-sharing', 'mig-parted/all-3g.20gb', 2],
      ['gpu-sharing', 'mig-parted/all-balanced', 4],
      // GPUs 0-3 whole (4), 4: 7, 5: 3, 6: 2, 7: 4 → 20 devices over 8 GPUs
      ['gpu-sharing', 'mig-parted/custom-config', 2.5],
    ],
  },
  // "data key 'time-sliced' holds a YAML *string* … replicas: 4"
  'gpu-sharing/redhat-cop-time-sliced-4-configmap-patch.yaml': {
    decls: [['gpu-sharing', 'device-plugin-config/time-sliced', 4]],
    notes: [['info', 12, 'advertised as 4 nvidia.com/gpu']],
  },
  // "replicas: 0 (effectively no oversubscription; not a zero-GPU declaration)"
  'gpu-sharing/redhat-cop-no-time-sliced-configmap-patch.yaml': {
    decls: [['gpu-sharing', 'device-plugin-config/no-time-sliced', 1]],
  },
  // "devicePlugin.config {name: device-plugin-config, default: time-sliced}"
  'gpu-sharing/redhat-cop-clusterpolicy-time-sliced-patch.yaml': {
    decls: [],
    notes: [['info', 8, 'device-plugin-config/time-sliced']],
  },
  // "mig.strategy single (MIG slices advertised as nvidia.com/gpu)"
  'gpu-sharing/redhat-cop-clusterpolicy-mig-single-patch.yaml': {
    decls: [],
    notes: [['info', 7, 'MIG strategy single advertises MIG slices as nvidia.com/gpu']],
  },
};

const files = corpusFiles().filter((f) => !f.path.startsWith('terraform-') && !f.path.startsWith('kueue/'));

describe('detectors on the non-Kueue corpus', () => {
  it('has an expectation for every corpus file and a file for every expectation', () => {
    expect(files.map((f) => f.path).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files.map((f) => [f.path, f] as const))('%s', (path, file) => {
    const expected = EXPECTED[path];
    if (!expected) throw new Error(`no expectation for ${path}`);
    const result = detectFile(path, file.text);
    expect(result.decls.map((d) => [d.kind, d.name, d.gpus])).toEqual(expected.decls.map(([k, n, g]) => [k, n, g]));
    for (const [kind, name, , model] of expected.decls) {
      if (model === undefined) continue;
      expect(result.decls.find((d) => d.kind === kind && d.name === name)?.gpuModel).toBe(model);
    }
    expect((result.unresolved ?? []).map((u) => [u.kind, u.name])).toEqual(expected.unresolved ?? []);
    for (const [severity, line, text] of expected.notes ?? []) {
      const hit = result.diagnostics.find((d) => d.line === line && d.severity === severity && d.message.includes(text));
      expect(hit, `${severity} at ${line} containing ${text}`).toBeDefined();
    }
    // Templates and unknowns are warnings; nothing in the corpus is a parser failure.
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Every uncounted declaration is explained by a warning.
    for (const u of result.unresolved ?? []) {
      expect(result.diagnostics.some((d) => d.severity === 'warning' && d.line === u.line)).toBe(true);
    }
  });
});
