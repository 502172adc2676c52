import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { PARSERS } from '../registry.js';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * Kubernetes objects declared as Terraform resources: a Karpenter NodePool in a
 * `kubernetes_manifest` (EKS Auto Mode and Karpenter clusters run from Terraform), a Kueue
 * ClusterQueue in a `kubectl_manifest` with `yamlencode`.
 */

const NODEPOOL_TF = 'terraform/nodepool.tf';
const nodePool = (limit: string) => `resource "kubernetes_manifest" "gpu_nodepool" {
  count = var.enable_gpu ? 1 : 0

  manifest = {
    apiVersion = "karpenter.sh/v1"
    kind       = "NodePool"
    metadata = {
      name = "gpu-nodepool"
    }
    spec = {
      limits = {
        "cpu"            = "16"
        "nvidia.com/gpu" = ${limit}
      }
      template = {
        spec = {
          nodeClassRef = { group = "eks.amazonaws.com", kind = "NodeClass", name = "default" }
          requirements = [
            { key = "eks.amazonaws.com/instance-family", operator = "In", values = ["g4dn"] },
            { key = "eks.amazonaws.com/instance-size", operator = "In", values = ["2xlarge"] },
          ]
        }
      }
    }
  }
}
`;
const variables = (enabled: boolean, limit = 2) =>
  `variable "enable_gpu" {\n  default = ${String(enabled)}\n}\nvariable "gpu_limit" {\n  default = ${limit}\n}\n`;

describe('a Karpenter NodePool in a kubernetes_manifest', () => {
  const base: Tree = { [NODEPOOL_TF]: nodePool('"2"'), 'terraform/variables.tf': variables(true) };

  it('is read as the NodePool it renders, at the line of its GPU limit', async () => {
    const head = { ...base, [NODEPOOL_TF]: nodePool('"8"') };
    const result = await detectPr(base, head);
    expect(changeRows(result)).toEqual([
      ['karpenter-nodepool', 'gpu-nodepool', 2, 8, 'T4', NODEPOOL_TF, lineIn(head[NODEPOOL_TF], '"nvidia.com/gpu" =')],
    ]);
    expect(result.diagnostics).toEqual([]);
  });

  it('takes its limit from a variable, and its existence from the count flag', async () => {
    const byVar = { ...base, [NODEPOOL_TF]: nodePool('var.gpu_limit') };
    const raised = { ...byVar, 'terraform/variables.tf': variables(true, 6) };
    expect(changeRows(await detectPr(byVar, raised)).map((r) => r.slice(1, 4))).toEqual([['gpu-nodepool', 2, 6]]);
    // Turning the flag on adds the pool.
    const off = { ...byVar, 'terraform/variables.tf': variables(false) };
    expect(changeRows(await detectPr(off, byVar)).map((r) => r.slice(1, 4))).toEqual([['gpu-nodepool', 0, 2]]);
  });

  it('leaves a manifest written as yamldecode of a heredoc to the heredoc reader: one pool, no warning', async () => {
    const heredoc = (limit: number) =>
      `resource "kubernetes_manifest" "gpu" {\n  manifest = yamldecode(<<-EOT\n    apiVersion: karpenter.sh/v1\n    kind: NodePool\n    metadata:\n      name: gpu\n    spec:\n      limits:\n        nvidia.com/gpu: ${limit}\n      template:\n        spec:\n          requirements:\n            - key: node.kubernetes.io/instance-type\n              operator: In\n              values: ["g5.xlarge"]\n  EOT\n  )\n}\n`;
    const result = await detectPr({ 'gpu.tf': heredoc(4) }, { 'gpu.tf': heredoc(8) });
    expect(changeRows(result).map((r) => r.slice(1, 5))).toEqual([['gpu', 4, 8, 'A10G']]);
    expect(result.diagnostics).toEqual([]);
  });

  it('says which value it cannot know, at its line, and counts nothing', async () => {
    const head = { [NODEPOOL_TF]: nodePool('var.gpu_limit') };
    const result = await detectPr({}, head);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        file: NODEPOOL_TF,
        line: lineIn(head[NODEPOOL_TF], 'count ='),
        severity: 'warning',
        message: match.stringContaining('kubernetes_manifest.gpu_nodepool: count = var.enable_gpu ? 1 : 0 uses var.enable_gpu'),
      }),
    ]);
  });
});

const QUEUES_TF = 'kueue/queues.tf';
const queues = (research: number) => `locals {
  queues = { research = ${research}, training = 4 }
}

resource "kubectl_manifest" "queue" {
  for_each = local.queues
  yaml_body = yamlencode({
    apiVersion = "kueue.x-k8s.io/v1beta1"
    kind       = "ClusterQueue"
    metadata   = { name = each.key }
    spec = {
      namespaceSelector = {}
      resourceGroups = [{
        coveredResources = ["nvidia.com/gpu"]
        flavors = [{
          name      = "a100"
          resources = [{ name = "nvidia.com/gpu", nominalQuota = each.value }]
        }]
      }]
    }
  })
}

resource "kubectl_manifest" "config" {
  yaml_body = yamlencode({ apiVersion = "v1", kind = "ConfigMap", metadata = { name = "notes" }, data = { gpu = "none" } })
}
`;

describe('Kueue ClusterQueues in a kubectl_manifest with yamlencode, one per for_each key', () => {
  it('are read one per instance, at their yaml_body', async () => {
    const result = await detectPr({ [QUEUES_TF]: queues(8) }, { [QUEUES_TF]: queues(12) });
    expect(changeRows(result)).toEqual([
      ['kueue-cluster-queue', 'research', 8, 12, null, QUEUES_TF, lineIn(queues(8), 'yaml_body = yamlencode({')],
    ]);
    expect(result.diagnostics).toEqual([]);
  });
});

describe('the terraform-manifests reader', () => {
  const parser = PARSERS.find((p) => p.id === 'terraform-manifests');

  it('is registered, and leaves Terraform without manifests to the Terraform reader', () => {
    expect(parser).toBeDefined();
    expect(parser?.mightContain('main.tf', 'resource "aws_eks_node_group" "gpu" {}\n')).toBe(false);
    expect(parser?.mightContain('main.tf', nodePool('"2"'))).toBe(true);
  });
});

describe('a manifest written in HCL, read as YAML', () => {
  it('keeps an HCL string a string where YAML 1.1 would read it otherwise (N, on, 010)', async () => {
    const pool = (family: string) =>
      nodePool('"8"')
        .replace('  count = var.enable_gpu ? 1 : 0\n', '')
        .replace(/gpu[_-]nodepool/g, 'batch')
        .replace('"nvidia.com/gpu" = "8"', '"memory" = "64Gi"')
        .replace(
          '{ key = "eks.amazonaws.com/instance-family", operator = "In", values = ["g4dn"] },',
          `{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["${family}"] },`,
        );
    const r = await detectPr({ [NODEPOOL_TF]: pool('D') }, { [NODEPOOL_TF]: pool('N') });
    // Azure's N family is its GPU VMs: with no GPU limit the pool is unbounded, never a CPU pool.
    expect(r.coverage.find((c) => c.file === NODEPOOL_TF)?.state).toBe('not-followed');
    const cpu = await detectPr({ [NODEPOOL_TF]: pool('D') }, { [NODEPOOL_TF]: pool('F') });
    expect(cpu.coverage.find((c) => c.file === NODEPOOL_TF)?.state, JSON.stringify(cpu.coverage)).not.toBe('not-followed');
  });
});
