import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { NEWER_SHA, POLICY_FILE, commentEvent, failThenOverride, pullRequest, stickyBody, reviewPush, useApp } from './app-harness.js';
import { CATALOG, QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A grant covers exactly what the approver saw, all of it. Through the real App over signed
 * webhooks: after a maintainer overrides the +6 on `research`, the author pushes one more commit.
 * Every kind of thing that may grow capacity (a new declaration, a raised count, a file the review
 * cannot follow, a new piece of missing evidence, a change of the policy that judges it), in
 * generated variants, lapses the grant, the check and the comment saying what is new; edits that
 * cannot grow capacity (docs, CPU quota, a smaller request, a moved line, a CPU-only queue) keep it.
 */

const h = useApp();

const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const SHARED = { owner: EXAMPLE_REPO.owner, repo: 'policies' };
const SHARED_POLICY = 'mode: enforce\nheadroom: 0.2\noverrides:\n  minPermission: maintain\n';
const OTHER_BASE = 'e'.repeat(40);

/** A small deterministic generator, so each variant is the same on every run. */
function generator(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

function queueNamed(name: string, gpus: number): string {
  return clusterQueue(gpus).replace('name: research', `name: ${name}`);
}

function nodePool(name: string, gpus: number): string {
  return `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: ${name}
spec:
  template:
    spec:
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["p4d.24xlarge"]
  limits:
    nvidia.com/gpu: ${gpus}
`;
}

/** A GKE pool whose node count comes from a variable with no default: not followed. */
function unfollowedTerraform(name: string): string {
  return `variable "gpu_nodes" {}
resource "google_container_node_pool" "${name}" {
  name       = "${name}"
  cluster    = "c"
  node_count = var.gpu_nodes
  node_config {
    machine_type = "a2-highgpu-1g"
    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 1
    }
  }
}
`;
}

/** A chart template whose quota the review cannot render: `lookup` reads the cluster, which no review sees. */
function unfollowedTemplate(name: string): string {
  return queueNamed(name, 0).replace(
    'nominalQuota: 0',
    'nominalQuota: {{ (lookup "v1" "ConfigMap" "kueue" "gpus").data.count | default 8 }}',
  );
}

/** One more commit on the PR, and what the App must then say. */
interface Mutation {
  name: string;
  /** The head's files after the push; `base` may move the base branch too. */
  apply: (files: Record<string, string>, setup: Setup) => void;
  /** For a lapse, what the lapse note must name. */
  names?: RegExp;
}

interface Setup {
  repo: FakeRepo;
  /** Moves the base branch to a commit with these files (a policy merged there). */
  moveBase: (files: Record<string, string>) => void;
  /** Rewrites the shared policy the base branch's `_extends` names. */
  share: (policy: string) => void;
}

const growths: Mutation[] = [];
const holds: Mutation[] = [];
for (let i = 0; i < 3; i++) {
  const pick = generator(2026_27_01 + i);
  const name = `q${pick(1000)}`;
  const gpus = 1 + pick(64);
  const raised = 13 + pick(50);
  const headroom = `0.${3 + pick(6)}`;
  // Never the default 0.05: the policy must change.
  const idleBelow = `0.0${[1, 2, 3, 4, 6, 7, 8, 9][pick(8)] ?? 1}`;
  growths.push(
    {
      name: `a new ClusterQueue ${name} of ${gpus} GPUs in a new file`,
      apply: (f) => void (f[`clusters/prod/${name}.yaml`] = queueNamed(name, gpus)),
      names: new RegExp(`a new GPU change: \`${name}\``),
    },
    {
      name: `a new ClusterQueue ${name} of ${gpus} GPUs beside research in its file`,
      apply: (f) => void (f[QUEUE_FILE] = `${clusterQueue(12)}---\n${queueNamed(name, gpus)}`),
      names: new RegExp(`a new GPU change: \`${name}\``),
    },
    {
      name: `a new Karpenter NodePool ${name} of ${gpus * 8} GPUs`,
      apply: (f) => void (f[`karpenter/${name}.yaml`] = nodePool(name, gpus * 8)),
      names: new RegExp(`a new GPU change: \`${name}\``),
    },
    {
      name: `research raised from 12 to ${raised}`,
      apply: (f) => void (f[QUEUE_FILE] = clusterQueue(raised)),
      names: /`research` \(kueue-cluster-queue, `clusters\/prod\/queues.yaml`\) now 6 → \d+ GPUs, beyond the 12 granted/,
    },
    {
      name: `a Terraform pool ${name} whose count is not followed`,
      apply: (f) => void (f[`tf/${name}.tf`] = unfollowedTerraform(name)),
      names: new RegExp(`\`tf/${name}.tf\` is not followed`),
    },
    {
      name: `a chart template ${name} whose quota is not followed`,
      apply: (f) => {
        f[`charts/${name}/Chart.yaml`] = `apiVersion: v2\nname: ${name}\nversion: 0.1.${i}\n`;
        f[`charts/${name}/templates/queue.yaml`] = unfollowedTemplate(name);
      },
      names: new RegExp(`\`charts/${name}/templates/queue.yaml\` is not followed`),
    },
    {
      name: `a Volcano Queue ${name} capping ${gpus} GPUs`,
      apply: (f) =>
        void (f[`volcano/${name}.yaml`] =
          `apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: ${name}\nspec:\n  weight: 1\n  capability:\n    nvidia.com/gpu: ${gpus}\n`),
      names: new RegExp(`a new GPU change: \`${name}\``),
    },
    {
      name: `a GPU quota ${name} of ${gpus} GPUs in a kind no reader counts`,
      apply: (f) =>
        void (f[`quotas/${name}.yaml`] =
          `apiVersion: quota.example.com/v1\nkind: GpuQuota\nmetadata:\n  name: ${name}\nspec:\n  limits:\n    nvidia.com/gpu: ${gpus}\n`),
      names: new RegExp(`\`quotas/${name}.yaml\` is not followed`),
    },
    {
      name: `a capacity file ${name} that cannot be parsed`,
      apply: (f) => void (f[`clusters/prod/${name}.yaml`] = `${queueNamed(name, gpus)}  broken: [\n`),
      names: new RegExp(`clusters/prod/${name}.yaml`),
    },
    {
      name: `a catalog entry ${name} on research that is invalid (new missing evidence)`,
      apply: (f) =>
        void (f['gpu-workloads.yaml'] = `${CATALOG}  - name: ${name}\n    type: batch\n    queue: research\n    gpusPerJob: ${gpus}\n`),
      names: /missing evidence: /,
    },
    {
      name: `the shared policy's headroom changed to ${headroom}`,
      apply: (_f, s) => s.share(SHARED_POLICY.replace('headroom: 0.2', `headroom: ${headroom}`)),
      names: /the policy that judges this pull request changed/,
    },
    {
      name: `the base branch's policy changed (idleBelow ${idleBelow})`,
      apply: (_f, s) => s.moveBase({ [POLICY_FILE]: `_extends: policies\nidleBelow: ${idleBelow}\n` }),
      names: /the policy that judges this pull request changed/,
    },
  );
  holds.push(
    { name: `a README edit #${i}`, apply: (f) => void (f['README.md'] = `# infra\n\n${'docs '.repeat(1 + pick(40))}\n`) },
    { name: `a new docs page #${i}`, apply: (f) => void (f[`docs/page-${pick(1000)}.md`] = '# page\n') },
    {
      name: `research's CPU quota to ${97 + pick(400)}`,
      apply: (f) => void (f[QUEUE_FILE] = clusterQueue(12).replace('nominalQuota: 96', `nominalQuota: ${97 + pick(400)}`)),
    },
    { name: `research lowered to ${7 + pick(5)}`, apply: (f) => void (f[QUEUE_FILE] = clusterQueue(7 + (pick(5) % 5))) },
    {
      name: `research's quota moved down ${1 + pick(5)} lines`,
      apply: (f) => void (f[QUEUE_FILE] = `${'# note\n'.repeat(1 + pick(5))}${clusterQueue(12)}`),
    },
    {
      name: `a CPU-only ClusterQueue ${name}`,
      apply: (f) =>
        void (f[`clusters/prod/${name}-cpu.yaml`] = queueNamed(name, 0)
          .replace('"nvidia.com/gpu"]', ']')
          .replace(/\n {12}- name: nvidia\.com\/gpu\n {14}nominalQuota: 0/, '')),
    },
  );
}

/** A PR raising research from 6 to 12 under an inherited enforce policy, overridden by a maintainer. */
async function granted(): Promise<Setup & { headFiles: Record<string, string> }> {
  const pr = pullRequest({}, '_extends: policies\n');
  const repo = new FakeRepo(h.fake, pr).serve();
  repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: SHARED_POLICY });
  repo.roles['maintainer'] = 'maintain';
  await failThenOverride(h, repo, () => commentEvent(OVERRIDE, { login: 'maintainer', commentId: 901 }));
  const moveBase = (files: Record<string, string>): void => {
    repo.pr.baseSha = OTHER_BASE;
    repo.pr.baseFiles = { ...repo.pr.baseFiles, ...files };
    repo.addTree(repo.pr.base, OTHER_BASE, repo.pr.baseFiles);
  };
  const share = (policy: string): void => void repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: policy });
  return { repo, moveBase, share, headFiles: { ...pr.headFiles } };
}

async function pushed(mutation: Mutation): Promise<FakeRepo> {
  const setup = await granted();
  const files = { ...setup.headFiles };
  mutation.apply(files, setup);
  setup.repo.push(NEWER_SHA, files);
  await reviewPush(h, setup.repo, { baseSha: setup.repo.pr.baseSha, linked: true });
  return setup.repo;
}

describe('after an override, a push that may grow capacity lapses it', () => {
  it.each(growths)('$name', async (mutation) => {
    const repo = await pushed(mutation);

    const run = repo.checkRuns.filter((r) => r.head_sha === NEWER_SHA).at(-1);
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).toMatch(/^Override lapsed: /);
    const summary = run?.output.summary ?? '';
    expect(summary).toContain(
      '**The override by @maintainer for head `cccccccccccc` lapsed**: this review holds what it was not granted for',
    );
    expect(summary).toMatch(mutation.names ?? /./);
    const comment = stickyBody(repo);
    expect(comment).not.toContain('gpu-justify:override');
    expect(comment).toContain('> [!WARNING]');
    expect(comment).toMatch(mutation.names ?? /./);
  });
});

describe('after an override, a push that cannot grow capacity keeps it', () => {
  it.each(holds)('$name', async (mutation) => {
    const repo = await pushed(mutation);

    const run = repo.checkRuns.filter((r) => r.head_sha === NEWER_SHA).at(-1);
    expect(run?.conclusion).toBe('success');
    expect(run?.output.title).toMatch(/^Overridden by @maintainer: /);
    expect(stickyBody(repo)).toContain('gpu-justify:override');
    expect(stickyBody(repo)).not.toContain('lapsed');
  });
});
