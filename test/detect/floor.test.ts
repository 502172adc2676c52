import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { renderCheck } from '../../src/report/check.js';
import { missingWords } from '../../src/report/missing-words.js';
import { runReview } from '../../src/review/index.js';
import { listingPr } from './listing-tree.js';
import type { Tree } from './listing-tree.js';

/** The floor's cases that generated variants (floor-variants.test.ts) do not reach: modules, verdicts, bounds. */

async function coverage(base: Tree, head: Tree) {
  return (await detectChanges(listingPr(base, head))).coverage.map((c) => [
    c.file,
    c.state,
    ...(c.notFollowed ?? []).map((n) => `${n.reason}: ${n.subject}`),
  ]);
}

const POOL = `resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  node_count = var.gpu_nodes
  node_config {
    machine_type = "g2-standard-8"
  }
}
`;
const VARS = (n: number) => `variable "gpu_nodes" {\n  type    = number\n  default = ${n}\n}\n`;

describe('the floor on Terraform modules', () => {
  it('a variable naming GPUs that sizes a pool the parser reads is read, with the change counted', async () => {
    const base = { 'tf/main.tf': POOL, 'tf/variables.tf': VARS(2) };
    const result = await detectChanges(listingPr(base, { ...base, 'tf/variables.tf': VARS(4) }));
    expect(result.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['gpu', 2, 4]]);
    expect(result.coverage.map((c) => [c.file, c.state])).toEqual([['tf/variables.tf', 'read']]);
  });

  it('the same variable handed to a module nothing reads is not followed, on the changed variables file', async () => {
    const main = `module "gpu" {\n  source = "git::https://example.com/pools.git"\n  nodes  = var.gpu_nodes\n}\n`;
    const base = { 'tf/main.tf': main, 'tf/variables.tf': VARS(2) };
    expect(await coverage(base, { ...base, 'tf/variables.tf': VARS(4) })).toEqual([
      ['tf/variables.tf', 'not-followed', 'remote-module: module.gpu'],
    ]);
  });

  it("a variable handed to a module of this repository is read as far as the module's own variable is", async () => {
    const vars = (type: string) => `variable "node_type" {\n  default = "${type}"\n}\n`;
    const main = `module "gpu" {\n  source        = "./modules/gpu"\n  instance_type = var.node_type\n}\n`;
    // The module renders the type into a template no reader follows: the call being read says nothing of it.
    const templated = `variable "instance_type" {}\ndata "template_file" "pool" {\n  template = file("pool.tpl")\n  vars = {\n    type = var.instance_type\n  }\n}\n`;
    const base = { 'tf/main.tf': main, 'tf/variables.tf': vars('t3.medium'), 'tf/modules/gpu/main.tf': templated };
    expect(await coverage(base, { ...base, 'tf/variables.tf': vars('g5.xlarge') })).toEqual([
      ['tf/variables.tf', 'not-followed', 'unaccounted-signal: g5.xlarge'],
    ]);
    // The module gives it to a node group the reader counts: read, through a second call as well.
    const group = `variable "instance_type" {}\nresource "aws_eks_node_group" "gpu" {\n  instance_types = [var.instance_type]\n  scaling_config {\n    desired_size = 1\n    max_size     = 2\n    min_size     = 0\n  }\n}\n`;
    const nested = `variable "instance_type" {}\nmodule "inner" {\n  source        = "../inner"\n  instance_type = var.instance_type\n}\n`;
    const counted = { ...base, 'tf/modules/gpu/main.tf': nested, 'tf/modules/inner/main.tf': group };
    const result = await detectChanges(listingPr(counted, { ...counted, 'tf/variables.tf': vars('g5.xlarge') }));
    expect(result.coverage.map((c) => [c.file, c.state])).toEqual([['tf/variables.tf', 'read']]);
    expect(result.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[0, 2]]);
  });

  it('a variable nothing uses, or a local only an output reads, changes nothing', async () => {
    const main = `${POOL.replace('var.gpu_nodes', '2')}locals {\n  gpu_type = "nvidia-l4"\n}\noutput "gpu" {\n  value = local.gpu_type\n}\n`;
    const base = { 'tf/main.tf': main, 'tf/variables.tf': VARS(2) };
    expect(await coverage(base, { ...base, 'tf/variables.tf': VARS(4) })).toEqual([['tf/variables.tf', 'read']]);
    expect(await coverage(base, { ...base, 'tf/main.tf': main.replace('nvidia-l4', 'nvidia-tesla-t4') })).toEqual([['tf/main.tf', 'read']]);
  });
});

describe('the floor in a review', () => {
  const STACK = `import * as eks from 'aws-cdk-lib/aws-eks';\n\ncluster.addNodegroupCapacity('gpu', { instanceTypes: [new ec2.InstanceType('p4d.24xlarge')], maxSize: 4 });\n`;
  const review = (mode: 'advise' | 'enforce') =>
    runReview({
      changes: listingPr({ 'infra/stack.ts': STACK.replace('maxSize: 4', 'maxSize: 2') }, { 'infra/stack.ts': STACK }),
      policy: { policy: { ...DEFAULT_POLICY, mode }, diagnostics: [], file: null },
    });

  it('a file not followed by the floor makes the review insufficient evidence, and the enforced check fail', async () => {
    const result = await review('enforce');
    expect(result.verdict).toBe('insufficient-evidence');
    expect(result.coverage?.[0]).toMatchObject({ file: 'infra/stack.ts', state: 'not-followed' });
    const [first] = result.missingEvidence;
    expect(first && missingWords(first).what).toBe('what `p4d.24xlarge` at `infra/stack.ts:3` does to GPU capacity');
    expect(renderCheck(result).conclusion).toBe('failure');
    expect(renderCheck(await review('advise')).conclusion).toBe('neutral');
  });

  it('a comment-only edit of a workload requesting GPUs is no GPU change', async () => {
    const job = `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\nspec:\n  template:\n    spec:\n      nodeSelector:\n        cloud.google.com/gke-accelerator: nvidia-h100-80gb\n      containers:\n        - name: t\n          resources:\n            limits:\n              nvidia.com/gpu: 8\n`;
    const result = await runReview({
      changes: listingPr({ 'jobs/train.yaml': job }, { 'jobs/train.yaml': `# nightly\n${job.replace('8\n', '4\n')}` }),
      policy: { policy: { ...DEFAULT_POLICY, mode: 'enforce' }, diagnostics: [], file: null },
    });
    expect(result.verdict).toBe('no-gpu-change');
    expect(renderCheck(result).conclusion).toBe('success');
  });
});
