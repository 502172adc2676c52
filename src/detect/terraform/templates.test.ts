import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';

const NODEPOOL = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: \${name}
spec:
  template:
    spec:
      requirements:
        - key: karpenter.k8s.aws/instance-family
          operator: In
          values: ["p5"]
  limits:
    nvidia.com/gpu: \${limit}
`;
const KUBECTL = (limit: string) => `variable "gpu_limit" {
  default = ${limit}
}
resource "kubectl_manifest" "gpu" {
  yaml_body = templatefile("\${path.module}/templates/nodepool.yaml.tftpl", { name = "gpu", limit = var.gpu_limit })
}
`;
const TPL = 'k/templates/nodepool.yaml.tftpl';

async function review(base: Record<string, string>, head: Record<string, string>) {
  const r = await detectPr(base, head);
  return {
    changes: r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter]),
    coverage: r.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => n.reason)]),
  };
}

describe('templates rendered with templatefile()', () => {
  it('a var handed to a template is counted in the render', async () => {
    expect(await review({ 'k/main.tf': KUBECTL('8'), [TPL]: NODEPOOL }, { 'k/main.tf': KUBECTL('16'), [TPL]: NODEPOOL })).toEqual({
      changes: [['karpenter-nodepool', 'gpu', 8, 16]],
      coverage: [['k/main.tf', 'read']],
    });
  });

  it('a template changed alone is read through the Terraform that renders it, not as YAML with ${…} in it', async () => {
    const head = NODEPOOL.replace('${limit}', '${limit * 2}');
    expect(await review({ 'k/main.tf': KUBECTL('8'), [TPL]: NODEPOOL }, { 'k/main.tf': KUBECTL('8'), [TPL]: head })).toEqual({
      changes: [['karpenter-nodepool', 'gpu', 8, 16]],
      coverage: [[TPL, 'read']],
    });
  });

  it('a render whose vars are not known is not followed', async () => {
    const base = { 'k/main.tf': KUBECTL('8'), [TPL]: NODEPOOL };
    const head = { 'k/main.tf': KUBECTL('8').replace('limit = var.gpu_limit', 'limit = data.x.limit'), [TPL]: NODEPOOL };
    expect((await review(base, head)).coverage).toEqual([['k/main.tf', 'not-followed', 'count-unknown']]);
  });

  it("a template rendered into a raw chart's Helm values", async () => {
    const values = `resources:
  - apiVersion: kueue.x-k8s.io/v1beta1
    kind: ClusterQueue
    metadata:
      name: research
    spec:
      resourceGroups:
        - coveredResources: ["nvidia.com/gpu"]
          flavors:
            - name: a100
              resources:
                - name: nvidia.com/gpu
                  nominalQuota: \${limit}
`;
    const helm = (n: number) =>
      `resource "helm_release" "pools" {\n  name   = "pools"\n  chart  = "raw"\n  values = [templatefile("values.yaml.tpl", { limit = ${n} })]\n}\n`;
    expect(
      await review({ 'h/main.tf': helm(4), 'h/values.yaml.tpl': values }, { 'h/main.tf': helm(8), 'h/values.yaml.tpl': values }),
    ).toEqual({
      changes: [['kueue-cluster-queue', 'research', 4, 8]],
      coverage: [['h/main.tf', 'read']],
    });
  });
});
