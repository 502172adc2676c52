import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changeSetFromArgs } from '../../src/cli/tree-readers/change-set.js';
import { detectChanges } from '../../src/detect/detect-changes.js';
import type { CapacityChange } from '../../src/domain/index.js';
import { analysePullRequest } from '../../src/github/review-pull-request.js';
import { GraphqlBlobs } from '../../src/github/api/graphql-blobs.js';
import { ApiTreeListing } from '../../src/github/api/tree-listing.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { CORPUS_ROOT } from '../detect/corpus.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { testOctokit } from '../helpers/octokit.js';
import { BASE_SHA, HEAD_SHA, NUMBER, REPO_PATH, prEvent, pullRequest, useApp } from './app-harness.js';
import { CATALOG, README } from './scenarios.js';

/**
 * Formats read with their siblings (a Terraform module, a kustomize overlay) see in the App what
 * they see in the CLI, and a pull request that needs no sibling lists no directory.
 */

type Files = Record<string, string>;

const h = useApp();
const target = { base: EXAMPLE_REPO, head: EXAMPLE_REPO, number: NUMBER, baseSha: BASE_SHA, headSha: HEAD_SHA };
const COMMON: Files = { 'gpu-workloads.yaml': CATALOG, 'README.md': README };

const fixture = (dir: string, file: string) => readFileSync(new URL(`../detect/fixtures/real/${dir}/${file}`, import.meta.url), 'utf8');
const MODULE = 'terraform-gke/mathgpt-infra';
/** A GKE module whose GPU pool's size is in terraform.tfvars, the one file the PR changes. */
const TF_BASE: Files = Object.fromEntries(
  ['main.tf', 'variables.tf', 'terraform.tfvars'].map((f) => [`terraform/infra/${f}`, fixture(MODULE, f)]),
);
const TFVARS = 'terraform/infra/terraform.tfvars';
const TF_HEAD: Files = { ...TF_BASE, [TFVARS]: edit(TF_BASE[TFVARS], 'gke_gpu_max_nodes     = 1', 'gke_gpu_max_nodes     = 2') };

const corpus = (file: string) => readFileSync(path.join(CORPUS_ROOT, file), 'utf8');
const QUOTA_PATCH = `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team1
spec:
  resourceGroups:
    - coveredResources: [cpu, memory, nvidia.com/gpu]
      flavors:
        - name: nvidia-h100-80gb
          resources:
            - name: cpu
              nominalQuota: '16'
            - name: memory
              nominalQuota: 256Gi
            - name: nvidia.com/gpu
              nominalQuota: '4'
        - name: nvidia-a100-80gb
          resources:
            - name: cpu
              nominalQuota: '64'
            - name: memory
              nominalQuota: 1024Gi
            - name: nvidia.com/gpu
              nominalQuota: '8'
`;
const flavor = (name: string, product: string) =>
  `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: ${name}\nspec:\n  nodeLabels:\n    nvidia.com/gpu.product: ${product}\n`;
/** Two teams' queues in a kustomize base, renamed per environment, prod's team1 patched. */
function kustomizeRepo(prodOverlay: Files): Files {
  return {
    'kueue/base/kustomization.yaml': 'resources:\n  - flavors.yaml\n  - team1-cq.yaml\n  - team2-cq.yaml\n',
    'kueue/base/flavors.yaml': `${flavor('nvidia-h100-80gb', 'NVIDIA-H100-80GB-HBM3')}---\n${flavor('nvidia-a100-80gb', 'NVIDIA-A100-SXM4-80GB')}`,
    'kueue/base/team1-cq.yaml': corpus('kueue/odh-workshop-team1-cq.yaml'),
    'kueue/base/team2-cq.yaml': corpus('kueue/odh-workshop-team2-cq.yaml'),
    'kueue/overlays/staging/kustomization.yaml': 'namePrefix: staging-\nresources:\n  - ../../base\n',
    ...Object.fromEntries(Object.entries(prodOverlay).map(([f, text]) => [`kueue/overlays/prod/${f}`, text])),
  };
}
const PATCH_FILE = 'kueue/overlays/prod/team1-quota.yaml';
const KUSTOMIZE_BASE = kustomizeRepo({
  'kustomization.yaml': 'namePrefix: prod-\nresources:\n  - ../../base\npatches:\n  - path: team1-quota.yaml\n',
  'team1-quota.yaml': QUOTA_PATCH,
});
const KUSTOMIZE_HEAD = { ...KUSTOMIZE_BASE, [PATCH_FILE]: edit(QUOTA_PATCH, "nominalQuota: '4'", "nominalQuota: '6'") };

function edit(text: string | undefined, from: string, to: string): string {
  if (text === undefined || !text.includes(from)) throw new Error(`${from} is not in the text`);
  return text.replace(from, to);
}

const row = (c: CapacityChange) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.gpuModel, c.file, c.line];

const temp = mkdtempSync(path.join(tmpdir(), 'gj-listing-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** What `gpu-justify detect --base … --head …` finds for the same two trees. */
async function cliChanges(name: string, base: Files, head: Files): Promise<unknown[][]> {
  const write = (side: string, files: Files) => {
    const root = path.join(temp, name, side);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return root;
  };
  const set = await changeSetFromArgs({ base: write('base', base), head: write('head', head) });
  return (await detectChanges(set)).changes.map(row);
}

/** `rest`: without GraphQL, so that the REST reads counted are every read. */
async function appChanges(base: Files, head: Files, rest = false): Promise<unknown[][]> {
  const repo = new FakeRepo(h.fake, pullRequest({ baseFiles: { ...COMMON, ...base }, headFiles: { ...COMMON, ...head } })).serve();
  if (rest) repo.withoutGraphql();
  const { result } = await analysePullRequest(testOctokit(h.fake.url), target);
  return result.changes.map(row);
}

const contentReads = (ref: string) =>
  h.fake
    .calls('GET', /\/contents\//)
    .filter((r) => r.query.get('ref') === ref)
    .map((r) => r.path.replace(/^.*\/contents\//, ''))
    .sort();
// Every listing: the policy's paths add none (without GraphQL, what stands above a path that gives
// no text is asked of the contents API, see not-a-file.ts).
const treeCalls = () => h.fake.calls('GET', /\/git\/trees\//);

describe('a Terraform module changed only in its tfvars', () => {
  it('is read with its other files: the App finds the pool the CLI finds', async () => {
    const cli = await cliChanges('tfvars', TF_BASE, TF_HEAD);
    expect(cli).toEqual([['gke-node-pool', 'mathsgpt-gpu-cluster-gpu-pool', 3, 6, 'T4', 'terraform/infra/main.tf', 101]]);

    expect(await appChanges(TF_BASE, TF_HEAD)).toEqual(cli);
  });

  it('costs one listing, at head, and one read of each unchanged file of the module', async () => {
    await appChanges(TF_BASE, TF_HEAD, true);

    expect(treeCalls().map((r) => r.path)).toEqual([`${REPO_PATH}/git/trees/${HEAD_SHA}`]);
    // The module's unchanged files read the same at both sides: read once, at head.
    expect(contentReads(HEAD_SHA).filter((p) => p.startsWith('terraform/'))).toEqual([
      'terraform/infra/main.tf',
      'terraform/infra/terraform.tfvars',
      'terraform/infra/variables.tf',
    ]);
    // Its base side is rebuilt from head and diff, as for any changed file that names no pool.
    expect(contentReads(BASE_SHA).filter((p) => p.startsWith('terraform/'))).toEqual([]);
  });

  it('is reviewed through the webhook with the pool named in the comment', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({ baseFiles: { ...COMMON, ...TF_BASE }, headFiles: { ...COMMON, ...TF_HEAD } }))
      .serve()
      .withoutGraphql();

    await h.app.deliver('pull_request', prEvent());

    const comment = repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
    expect(comment).toContain('mathsgpt-gpu-cluster-gpu-pool');
    expect(comment).toMatch(/3 → 6\s*\|\s*\+3/);
    expect(repo.checkRuns[0]?.output.title).not.toContain('could not run');
  });
});

describe('a kustomize overlay patch raising a queue', () => {
  it('is rendered through its overlay: the App reports prod-team1, as the CLI does', async () => {
    const cli = await cliChanges('overlay', KUSTOMIZE_BASE, KUSTOMIZE_HEAD);
    expect(cli.map((r) => r.slice(0, 4))).toEqual([['kueue-cluster-queue', 'prod-team1', 12, 14]]);

    expect(await appChanges(KUSTOMIZE_BASE, KUSTOMIZE_HEAD)).toEqual(cli);
  });

  it('as a JSON patch file, which names no kind, is rendered through its overlay too', async () => {
    const op = (gpus: number) => `- op: replace\n  path: /spec/resourceGroups/0/flavors/0/resources/2/nominalQuota\n  value: ${gpus}\n`;
    const kustomization =
      'namePrefix: prod-\nresources:\n  - ../../base\npatches:\n  - path: gpu-quota.yaml\n    target:\n      kind: ClusterQueue\n      name: team1\n';
    const base = kustomizeRepo({ 'kustomization.yaml': kustomization, 'gpu-quota.yaml': op(4) });
    const head = { ...base, 'kueue/overlays/prod/gpu-quota.yaml': op(8) };

    const cli = await cliChanges('json-patch', base, head);
    expect(cli.map((r) => r.slice(0, 4))).toEqual([['kueue-cluster-queue', 'prod-team1', 12, 16]]);
    expect(await appChanges(base, head)).toEqual(cli);
  });

  it('lists one tree for every directory of the PR, and reads the unchanged bases once', async () => {
    await appChanges({ ...TF_BASE, ...KUSTOMIZE_BASE }, { ...TF_HEAD, ...KUSTOMIZE_HEAD }, true);

    expect(treeCalls()).toHaveLength(1);
    expect(contentReads(BASE_SHA).filter((p) => p.startsWith('kueue/'))).toEqual([PATCH_FILE]);
    expect(contentReads(HEAD_SHA).filter((p) => p.startsWith('kueue/'))).toEqual([
      'kueue/base/flavors.yaml',
      'kueue/base/kustomization.yaml',
      'kueue/base/team1-cq.yaml',
      'kueue/base/team2-cq.yaml',
      'kueue/overlays/prod/kustomization.yaml',
      PATCH_FILE,
    ]);
  });
});

describe('a kustomize base edit', () => {
  it('is reported per overlay in the App as in the CLI: staging renders it, prod overrides it', async () => {
    const head = {
      ...KUSTOMIZE_BASE,
      'kueue/base/team1-cq.yaml': edit(KUSTOMIZE_BASE['kueue/base/team1-cq.yaml'], "nominalQuota: '8'", "nominalQuota: '12'"),
    };
    const cli = await cliChanges('base-edit', KUSTOMIZE_BASE, head);
    expect(cli).toEqual([['kueue-cluster-queue', 'staging-team1', 10, 14, null, 'kueue/overlays/staging/kustomization.yaml', 3]]);

    expect(await appChanges(KUSTOMIZE_BASE, head)).toEqual(cli);
    expect(treeCalls()).toHaveLength(1);
  });
});

describe('a kustomize base edit with overlays in folders of any name', () => {
  it('reaches overlays/us-east-1 in the App as in the CLI, from the same one tree listing', async () => {
    const regional = Object.fromEntries(
      Object.entries(KUSTOMIZE_BASE).map(([p, text]) => [
        p.replace('/overlays/staging/', '/overlays/us-east-1/').replace('/overlays/prod/', '/overlays/eu-west-4/'),
        text,
      ]),
    );
    const head = {
      ...regional,
      'kueue/base/team2-cq.yaml': edit(regional['kueue/base/team2-cq.yaml'], "nominalQuota: '6'", "nominalQuota: '8'"),
    };
    const cli = await cliChanges('regional', regional, head);
    expect(cli.map((r) => [r[1], r[5]])).toEqual([
      ['prod-team2', 'kueue/overlays/eu-west-4/kustomization.yaml'],
      ['staging-team2', 'kueue/overlays/us-east-1/kustomization.yaml'],
    ]);

    expect(await appChanges(regional, head)).toEqual(cli);
    expect(treeCalls()).toHaveLength(1);
  });
});

describe('an ordinary pull request', () => {
  const deployment = (replicas: number) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: ${replicas}\n  template:\n    spec:\n      containers:\n        - name: web\n          image: web:1\n`;
  const app = (replicas: number): Files => ({
    'apps/web/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
    'apps/web/deployment.yaml': deployment(replicas),
  });

  it('in a kustomize directory costs what it did: one listing (the links), no read of the kustomization', async () => {
    const repo = new FakeRepo(
      h.fake,
      pullRequest({
        baseFiles: { ...COMMON, ...app(2) },
        headFiles: { ...COMMON, ...app(3), 'README.md': `${README}More.\n` },
      }),
    ).serve();

    await h.app.deliver('pull_request', prEvent());

    // The head's one recursive listing, for the links that may lead to a changed file.
    expect(treeCalls().map((r) => r.path)).toEqual([`${REPO_PATH}/git/trees/${HEAD_SHA}`]);
    // Every read in one GraphQL query, none through REST.
    expect(h.fake.calls('POST', '/graphql')).toHaveLength(1);
    expect(contentReads(HEAD_SHA)).toEqual([]);
    // BENCHMARKS.md §4's non-GPU PR: 6 calls (5 before the head's links were listed) with its check in progress first (10 before GraphQL,
    // 6 before the pull request was read only for a comment), and the queued job's read of the
    // pull request (which head to review), token requests and the App's one `GET /app` per
    // process aside; call-budget.test.ts counts the one-write path.
    const calls = h.fake.requests.filter((r) => !r.path.endsWith('/access_tokens') && r.path !== '/app');
    expect(calls).toHaveLength(7);
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
  });
});

describe('listing failures', () => {
  // Without GraphQL, whose query would list these directories: the trees API lists them.
  it('a directory missing at head (404 on the tree) is empty: the tfvars are read alone', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({ baseFiles: { ...COMMON, ...TF_BASE }, headFiles: { ...COMMON, ...TF_HEAD } }))
      .serve()
      .withoutGraphql();
    h.fake.fail('GET', /\/git\/trees\//, { status: 404, body: { message: 'Not Found' } });

    await h.app.deliver('pull_request', prEvent());

    expect(treeCalls()).toHaveLength(1);
    expect(repo.checkRuns[0]?.output.title).not.toContain('could not run');
    expect(contentReads(HEAD_SHA)).not.toContain('terraform/infra/main.tf');
  });

  it('a 502 on the listing ends the review as one that could not run, saying where', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({ baseFiles: { ...COMMON, ...TF_BASE }, headFiles: { ...COMMON, ...TF_HEAD } }))
      .serve()
      .withoutGraphql();
    h.fake.fail('GET', new RegExp(`/git/trees/${HEAD_SHA}`), { status: 502, body: { message: 'Server Error' } }, 10);

    await h.app.deliver('pull_request', prEvent());

    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(repo.checkRuns[0]?.output.title).toContain('could not run');
    expect(repo.checkRuns[0]?.output.summary).toContain(`502 on GET ${REPO_PATH}/git/trees/${HEAD_SHA}`);
  });

  it('a tree too large for one answer is listed directory by directory, with the same result', async () => {
    const files = { ...COMMON, ...TF_BASE, ...KUSTOMIZE_BASE };
    const repo = new FakeRepo(h.fake, pullRequest({ baseFiles: files, headFiles: { ...files, ...TF_HEAD, ...KUSTOMIZE_HEAD } }))
      .serve()
      .withoutGraphql();
    // The recursive answer stops after the first few entries: the listed directories are not among them.
    repo.treeEntryLimit = 3;

    const { result } = await analysePullRequest(testOctokit(h.fake.url), target);

    expect(result.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([
      ['prod-team1', 12, 14],
      ['mathsgpt-gpu-cluster-gpu-pool', 3, 6],
    ]);
    const recursive = treeCalls().filter((r) => r.query.has('recursive'));
    expect(recursive).toHaveLength(1);
    // Then one tree per level below the deepest the cut answer names, each asked once: kueue (it
    // names it), overlays, prod and base (the overlay's base); the root, terraform, infra. The
    // head's links are found walking every tree of the commit, the same calls serving both: 8.
    expect(treeCalls().filter((r) => !r.query.has('recursive'))).toHaveLength(8);
    expect(new Set(treeCalls().map((r) => r.path)).size).toBe(treeCalls().length);
  });
});

describe('ApiTreeListing', () => {
  const files = { ...COMMON, ...TF_BASE, 'terraform/infra/modules/pool/main.tf': 'x = 1\n' };
  const at = (path: string) => ({ repo: EXAMPLE_REPO, ref: HEAD_SHA, path });

  it('answers from the directories GraphQL listed, as the trees API would, and asks it only below them', async () => {
    new FakeRepo(h.fake, pullRequest({ baseFiles: files, headFiles: files })).serve();
    const octokit = testOctokit(h.fake.url);
    const blobs = new GraphqlBlobs(octokit);
    // As ApiChangeSet asks: with a file, the directories above it.
    blobs.prefetch([at(TFVARS)]);
    blobs.prefetchIfRoom([], ['', 'terraform', 'terraform/infra'].map(at));
    const listing = new ApiTreeListing(octokit, EXAMPLE_REPO, HEAD_SHA, blobs);
    const dirs = ['', 'terraform', 'terraform/infra', 'terraform/nowhere', 'terraform/infra/main.tf', 'overlays', 'terraform/envs'];

    const fromGraphql = [];
    for (const dir of dirs) fromGraphql.push([await listing.list(dir), await listing.dirs(dir)]);

    expect(treeCalls()).toEqual([]);
    expect(h.fake.calls('POST', '/graphql')).toHaveLength(1);
    const rest = new ApiTreeListing(octokit, EXAMPLE_REPO, HEAD_SHA);
    const fromRest = [];
    for (const dir of dirs) fromRest.push([await rest.list(dir), await rest.dirs(dir)]);
    expect(fromGraphql).toEqual(fromRest);
    expect(fromGraphql[2]).toEqual([
      ['terraform/infra/main.tf', 'terraform/infra/terraform.tfvars', 'terraform/infra/variables.tf'],
      ['terraform/infra/modules'],
    ]);
    // A directory GraphQL was not asked about: through the trees API.
    const before = treeCalls().length;
    expect(await listing.list('terraform/infra/modules/pool')).toEqual(['terraform/infra/modules/pool/main.tf']);
    expect(treeCalls()).toHaveLength(before + 1);
  });

  it('lists a directory of more entries than GraphQL is trusted with through the trees API', async () => {
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`big/f${i}.yaml`, `n: ${i}\n`]));
    new FakeRepo(h.fake, pullRequest({ baseFiles: many, headFiles: many })).serve();
    const octokit = testOctokit(h.fake.url);
    const blobs = new GraphqlBlobs(octokit);
    blobs.prefetch([at('big/f0.yaml')]);
    blobs.prefetchIfRoom([], [at('big')]);
    const listing = new ApiTreeListing(octokit, EXAMPLE_REPO, HEAD_SHA, blobs);

    expect(await listing.list('big')).toHaveLength(1001);
    expect(treeCalls()).toHaveLength(1);
  });

  it.each([100_000, 2])('lists the files directly inside a directory, whole or cut at %i entries', async (limit) => {
    new FakeRepo(h.fake, pullRequest({ baseFiles: files, headFiles: files })).serve().treeEntryLimit = limit;
    const listing = new ApiTreeListing(testOctokit(h.fake.url), EXAMPLE_REPO, HEAD_SHA);

    expect(await listing.list('')).toEqual(['README.md', 'gpu-workloads.yaml']);
    expect(await listing.list('terraform/infra')).toEqual([
      'terraform/infra/main.tf',
      'terraform/infra/terraform.tfvars',
      'terraform/infra/variables.tf',
    ]);
    expect(await listing.list('terraform')).toEqual([]);
    expect(await listing.list('terraform/nowhere')).toEqual([]);
    // Asked again: from what was fetched.
    const calls = treeCalls().length;
    expect(await listing.list('terraform/infra/')).toEqual(await listing.list('terraform/infra'));
    expect(treeCalls()).toHaveLength(calls);
  });

  it.each([100_000, 2])('lists the directories directly inside a directory, whole or cut at %i entries', async (limit) => {
    new FakeRepo(h.fake, pullRequest({ baseFiles: files, headFiles: files })).serve().treeEntryLimit = limit;
    const listing = new ApiTreeListing(testOctokit(h.fake.url), EXAMPLE_REPO, HEAD_SHA);

    expect(await listing.dirs('')).toEqual(['terraform']);
    expect(await listing.dirs('terraform')).toEqual(['terraform/infra']);
    expect(await listing.dirs('terraform/infra')).toEqual(['terraform/infra/modules']);
    expect(await listing.dirs('terraform/infra/modules/pool')).toEqual([]);
    expect(await listing.dirs('terraform/nowhere')).toEqual([]);
  });
});
