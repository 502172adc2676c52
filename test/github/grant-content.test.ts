import { describe, expect, it } from 'vitest';
import { MAX_FILE_CHARS } from '../../src/domain/limits.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { NEWER_SHA, commentEvent, failThenOverride, pullRequest, stickyBody, reviewPush, useApp } from './app-harness.js';

/**
 * A grant covers a file the review could not follow as the approver saw it: its content, not only
 * what the review could say of it. Through the real App over signed webhooks, a maintainer
 * overrides a PR holding a file not followed; the author then edits that file alone, so that
 * nothing the review can name moves (same subject, reason and line), in generated variants. Each
 * edit lapses the grant; a push that leaves the file as it was keeps it.
 */

const h = useApp();
const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const POLICY = 'mode: enforce\noverrides:\n  minPermission: maintain\n';

interface Variant {
  name: string;
  file: string;
  text: (n: number) => string;
}

const variants: Variant[] = [
  {
    name: 'a remote Terraform module given a GPU count',
    file: 'tf/pool.tf',
    text: (n) => `module "gpu_pool" {\n  source    = "git::https://example.com/pools.git?ref=v1"\n  gpu_count = ${n}\n}\n`,
  },
  {
    name: 'a GPU quota in a kind no reader counts',
    file: 'quotas/team.yaml',
    text: (n) => `apiVersion: quota.example.com/v1\nkind: GpuQuota\nmetadata:\n  name: team\nspec:\n  limits:\n    nvidia.com/gpu: ${n}\n`,
  },
  {
    name: 'a pool sized by a variable with no default',
    file: 'tf/gke.tf',
    text: (n) => `variable "gpu_nodes" {}
resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  cluster    = "c"
  node_count = var.gpu_nodes * ${n}
  node_config {
    machine_type = "a2-highgpu-1g"
    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 1
    }
  }
}
`,
  },
  {
    name: 'a capacity file that cannot be parsed',
    file: 'clusters/prod/broken.yaml',
    text: (n) => `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: broken\nspec: [\n  nvidia.com/gpu: ${n}\n`,
  },
  {
    // Never downloaded, so never read: the swap keeps the size GitHub gives to the byte.
    name: 'a queue file over the size limit, swapped for one of the same size',
    file: 'clusters/prod/generated.yaml',
    text: (n) => padTo(MAX_FILE_CHARS + 4096, clusterQueueText('generated', n)),
  },
];

function clusterQueueText(name: string, n: number): string {
  return `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: ${name}\nspec:\n  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n    - name: a100\n      resources:\n      - name: nvidia.com/gpu\n        nominalQuota: ${n}\n`;
}

/** `text` followed by a comment filling it to exactly `bytes` bytes. */
function padTo(bytes: number, text: string): string {
  return `${text}# ${'x'.repeat(bytes - Buffer.byteLength(text) - 3)}\n`;
}

async function grantedThenPushed(v: Variant, after: number): Promise<FakeRepo> {
  const base = pullRequest({}, POLICY);
  const pr = pullRequest({ headFiles: { ...base.headFiles, [v.file]: v.text(4) } }, POLICY);
  const repo = new FakeRepo(h.fake, pr).serve();
  repo.roles['maintainer'] = 'maintain';
  await failThenOverride(h, repo, () => commentEvent(OVERRIDE, { login: 'maintainer', commentId: 901 }));
  repo.push(NEWER_SHA, { ...pr.headFiles, [v.file]: v.text(after), 'README.md': '# infra, edited\n' });
  await reviewPush(h, repo, { linked: true });
  return repo;
}

describe('after an override, an edit to a file not followed lapses it', () => {
  it.each(variants)('$name', async (v) => {
    const repo = await grantedThenPushed(v, 400 + v.name.length);
    const run = repo.checkRuns.filter((r) => r.head_sha === NEWER_SHA).at(-1);
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).toMatch(/^Override lapsed: /);
    expect(run?.output.summary).toContain(`\`${v.file}\``);
    expect(stickyBody(repo)).not.toContain('gpu-justify:override');
  });

  it.each([variants[0], variants.at(-1)] as Variant[])('a push leaving the file as it was keeps it: $name', async (v) => {
    const repo = await grantedThenPushed(v, 4);
    const run = repo.checkRuns.filter((r) => r.head_sha === NEWER_SHA).at(-1);
    expect(run?.conclusion).toBe('success');
    expect(stickyBody(repo)).toContain('gpu-justify:override');
  });
});
