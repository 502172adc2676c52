import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { renderComment } from '../../src/report/comment.js';
import { reviewJson } from '../../src/report/json.js';
import { runReview } from '../../src/review/index.js';
import { listingPr, type Tree } from './listing-tree.js';
import { missingWords } from '../../src/report/missing-words.js';

/** The same tree at both sides but for the given files. */
function edit(tree: Tree, changes: Tree): [Tree, Tree] {
  return [tree, { ...tree, ...changes }];
}

async function coverage(base: Tree, head: Tree) {
  return (await detectChanges(listingPr(base, head))).coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => n.reason)]);
}

function review(base: Tree, head: Tree) {
  return runReview({ changes: listingPr(base, head), policy: { policy: DEFAULT_POLICY, diagnostics: [], file: null } });
}

const CHART: Tree = {
  'charts/queues/Chart.yaml': 'apiVersion: v2\nname: queues\nversion: 0.1.0\n',
  'charts/queues/values.yaml': 'image:\n  tag: v1\nqueue:\n  name: research\n  gpus: 8\n  flavor: a100\n',
  'charts/queues/templates/deployment.yaml':
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  template:\n    spec:\n      containers:\n        - image: "app:{{ .Values.image.tag }}"\n',
  'charts/queues/templates/cluster-queue.yaml': [
    'apiVersion: kueue.x-k8s.io/v1beta1',
    'kind: ClusterQueue',
    'metadata:',
    '  name: {{ .Values.queue.name }}',
    'spec:',
    '  resourceGroups:',
    '    - coveredResources: ["nvidia.com/gpu"]',
    '      flavors:',
    '        - name: {{ .Values.queue.flavor }}',
    '          resources:',
    '            - name: nvidia.com/gpu',
    '              nominalQuota: {{ .Values.queue.gpus | int }}',
    '',
  ].join('\n'),
};

const ENV_TFVARS = 'region = "us-central1"\ngpu_pool = {\n  machine_type = "a2-highgpu-1g"\n  max_count    = 2\n}\n';

const ENV: Tree = { 'envs/prod/terraform.tfvars': ENV_TFVARS };
const ENV_EDIT: Tree = { 'envs/prod/terraform.tfvars': ENV_TFVARS.replace('max_count    = 2', 'max_count    = 8') };

describe('coverage of the changed files', () => {
  it('rules out docs, source, workflows and lock files by a cheap check: no GPU change', async () => {
    const [base, head] = edit(
      {
        'docs/setup.md': '# Setup\n',
        'cmd/main.go': 'package main\n',
        '.github/workflows/ci.yml': 'on: push\njobs: {}\n',
        'package-lock.json': '{}',
      },
      {
        'docs/setup.md': '# Setup\n\nRun it.\n',
        'cmd/main.go': 'package main\n\nfunc main() {}\n',
        '.github/workflows/ci.yml': 'on: [push, pull_request]\njobs: {}\n',
        'package-lock.json': '{"a":1}',
      },
    );
    expect(await coverage(base, head)).toEqual([
      ['.github/workflows/ci.yml', 'not-capacity'],
      ['cmd/main.go', 'not-capacity'],
      ['docs/setup.md', 'not-capacity'],
      ['package-lock.json', 'not-capacity'],
    ]);
    const result = await review(base, head);
    expect(result.verdict).toBe('no-gpu-change');
    expect(renderComment(result)).not.toContain('Not followed');
  });

  it('a file a parser reads is read, with the objects it declares', async () => {
    const queue = CHART['charts/queues/templates/cluster-queue.yaml'] ?? '';
    const literal = queue.replace(/\{\{ \.Values\.queue\.name \}\}/, 'research').replace(/\{\{ \.Values\.queue\.flavor \}\}/, 'a100');
    const got = await detectChanges(
      listingPr(
        { 'q.yaml': literal.replace('{{ .Values.queue.gpus | int }}', '4') },
        { 'q.yaml': literal.replace('{{ .Values.queue.gpus | int }}', '6') },
      ),
    );
    expect(got.coverage).toEqual([{ file: 'q.yaml', state: 'read', objects: 1 }]);
    expect(got.changes.map((c) => c.delta)).toEqual([2]);
  });

  it("a chart's values are followed into its GPU templates; values no GPU template reads change nothing", async () => {
    const values = CHART['charts/queues/values.yaml'] ?? '';
    const [base, head] = edit(CHART, { 'charts/queues/values.yaml': values.replace('gpus: 8', 'gpus: 16') });
    const got = await detectChanges(listingPr(base, head));
    expect(got.coverage).toEqual([{ file: 'charts/queues/values.yaml', state: 'read', objects: 0 }]);
    // Rendered: the quota of the template's ClusterQueue, at its line in the template.
    expect(got.changes.map((c) => [c.file, c.line, c.kind, c.name, c.gpusBefore, c.gpusAfter])).toEqual([
      ['charts/queues/templates/cluster-queue.yaml', 12, 'kueue-cluster-queue', 'research', 8, 16],
    ]);
    const [b2, h2] = edit(CHART, { 'charts/queues/values.yaml': values.replace('tag: v1', 'tag: v2') });
    const unrelated = await detectChanges(listingPr(b2, h2));
    expect(unrelated.changes).toEqual([]);
    expect(unrelated.coverage).toEqual([{ file: 'charts/queues/values.yaml', state: 'read', objects: 0 }]);
  });

  it('an environment values file is rendered over the chart defaults, as helm -f does', async () => {
    const prod = 'queue:\n  gpus: 24\n';
    const [base, head] = edit(
      { ...CHART, 'charts/queues/values-prod.yaml': prod },
      { 'charts/queues/values-prod.yaml': 'queue:\n  gpus: 32\n' },
    );
    const got = await detectChanges(listingPr(base, head));
    expect(got.changes.map((c) => [c.file, c.name, c.gpusBefore, c.gpusAfter])).toEqual([
      ['charts/queues/values-prod.yaml', 'research', 24, 32],
    ]);
  });

  it('values that feed a GPU field through what is not rendered are not followed, unless they did not change', async () => {
    const withGpus = (expr: string) => ({
      ...CHART,
      'charts/queues/templates/cluster-queue.yaml': (CHART['charts/queues/templates/cluster-queue.yaml'] ?? '').replace(
        '{{ .Values.queue.gpus | int }}',
        expr,
      ),
    });
    // `floor` is a Sprig function outside the renderer's set.
    const tree = withGpus('{{ .Values.queue.gpus | float64 | floor }}');
    const values = CHART['charts/queues/values.yaml'] ?? '';
    const [base, head] = edit(tree, { 'charts/queues/values.yaml': values.replace('gpus: 8', 'gpus: 16') });
    const got = await detectChanges(listingPr(base, head));
    expect(got.coverage.map((c) => [c.file, c.state, c.notFollowed?.map((n) => [n.reason, n.needs, n.inputs])])).toEqual([
      [
        'charts/queues/values.yaml',
        'not-followed',
        [
          [
            'helm-values',
            'charts/queues/templates/cluster-queue.yaml',
            [expect.stringMatching(/^function "floor" is outside the renderer's set at line \d+$/)],
          ],
        ],
      ],
    ]);
    const [b2, h2] = edit(tree, { 'charts/queues/values.yaml': values.replace('tag: v1', 'tag: v2') });
    expect(await coverage(b2, h2)).toEqual([['charts/queues/values.yaml', 'read']]);
    // What the renderer knows is rendered: Sprig's arithmetic, a range over the values.
    const [b3, h3] = edit(withGpus('{{ mul .Values.queue.gpus 2 }}'), {
      'charts/queues/values.yaml': values.replace('gpus: 8', 'gpus: 16'),
    });
    expect((await detectChanges(listingPr(b3, h3))).changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[16, 32]]);
    const ranged = [
      '{{- range .Values.queues }}',
      '---',
      (CHART['charts/queues/templates/cluster-queue.yaml'] ?? '').replace(/\.Values\.queue\./g, '.'),
      '{{- end }}',
    ].join('\n');
    const [b4, h4] = edit(
      { ...CHART, 'charts/queues/templates/cluster-queue.yaml': ranged },
      { 'charts/queues/values.yaml': 'queues:\n  - name: a\n    gpus: 4\n' },
    );
    expect((await detectChanges(listingPr(b4, h4))).changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter])).toEqual([['a', 0, 4]]);
  });

  it('tfvars with no module beside them are not followed when they change what sizes GPU pools', async () => {
    const tree: Tree = { 'envs/prod/terraform.tfvars': ENV_TFVARS };
    const [base, head] = edit(tree, { 'envs/prod/terraform.tfvars': ENV_TFVARS.replace('max_count    = 2', 'max_count    = 8') });
    const got = await detectChanges(listingPr(base, head));
    expect(got.coverage[0]?.notFollowed?.map((n) => [n.reason, n.line, n.inputs])).toEqual([['tfvars-no-module', 2, ['gpu_pool']]]);
    // The region sizes nothing.
    const [b2, h2] = edit(tree, { 'envs/prod/terraform.tfvars': ENV_TFVARS.replace('us-central1', 'us-east1') });
    expect(await coverage(b2, h2)).toEqual([['envs/prod/terraform.tfvars', 'not-capacity']]);
    // Sizes fed to a module that was not found are not followed even where the file names no GPU: the module's defaults may.
    const cpu = 'node_count = 3\nmachine_type = "e2-standard-4"\n';
    expect(await coverage({ 'envs/dev/terraform.tfvars': cpu }, { 'envs/dev/terraform.tfvars': cpu.replace('3', '5') })).toEqual([
      ['envs/dev/terraform.tfvars', 'not-followed', 'tfvars-no-module'],
    ]);
  });

  it('a local module handed new GPU sizes is not followed; the same call with an unrelated edit is read', async () => {
    const call = (nodes: number, region: string) =>
      `module "gpu" {\n  source     = "./modules/gpu-pool"\n  node_count = ${nodes}\n  region     = "${region}"\n}\n`;
    const changed = await detectChanges(listingPr({ 'main.tf': call(2, 'a') }, { 'main.tf': call(4, 'a') }));
    expect(
      changed.coverage.map((c) => [c.state, c.notFollowed?.[0]?.reason, c.notFollowed?.[0]?.subject, c.notFollowed?.[0]?.needs]),
    ).toEqual([['not-followed', 'local-module', 'module.gpu', './modules/gpu-pool']]);
    const unrelated = await detectChanges(
      listingPr({ 'main.tf': call(2, 'a') }, { 'main.tf': `${call(2, 'a')}\noutput "x" {\n  value = 1\n}\n` }),
    );
    expect(unrelated.coverage).toEqual([{ file: 'main.tf', state: 'read', objects: 0 }]);
  });

  it('a Terragrunt parent whose GPU inputs change is not followed', async () => {
    const root = (n: number) => `inputs = {\n  gpu_node_count = ${n}\n  gpu_type = "nvidia-h100-80gb"\n}\n`;
    expect(await coverage({ 'live/root.hcl': root(2) }, { 'live/root.hcl': root(4) })).toEqual([
      ['live/root.hcl', 'not-followed', 'terragrunt-include'],
    ]);
  });

  it('Cluster Toolkit deployment vars that size GPU pools are not followed', async () => {
    const dep = (n: number) =>
      `terraform_backend_defaults:\n  type: gcs\nvars:\n  project_id: p\n  deployment_name: d\n  a3_static_cluster_size: ${n}\n  accelerator_type: nvidia-h100-mega-80gb\n`;
    expect(await coverage({ 'a3/deployment.yaml': dep(2) }, { 'a3/deployment.yaml': dep(4) })).toEqual([
      ['a3/deployment.yaml', 'not-followed', 'toolkit-deployment'],
    ]);
  });

  it('a PR with a file not followed is insufficient evidence, named first in the comment and in the JSON', async () => {
    const [base, head] = edit({ ...ENV, 'README.md': 'a\n' }, { ...ENV_EDIT, 'README.md': 'b\n' });
    const result = await review(base, head);
    expect(result.verdict).toBe('insufficient-evidence');
    expect(missingWords(result.missingEvidence[0]!).what).toBe('the root module that reads envs/prod/terraform.tfvars');
    const body = renderComment(result);
    expect(body.indexOf('#### Not followed (1 file)')).toBeGreaterThan(0);
    expect(body.indexOf('#### Not followed')).toBeLessThan(body.indexOf('<details'));
    expect(body).toContain('`envs/prod/terraform.tfvars:2`');
    const json = reviewJson(result);
    expect(json.coverage?.map((c) => [c.file, c.state, c.reason ?? null, c.line ?? null])).toEqual([
      ['README.md', 'not-capacity', null, null],
      ['envs/prod/terraform.tfvars', 'not-followed', 'tfvars-no-module', 2],
    ]);
  });
});

describe('values files with no chart beside them', () => {
  const values = 'nodes:\n  count: 2\n  perNodeResources:\n    nvidia.com/gpu: "8"\nimage:\n  tag: v1\n';
  it('are not followed when they change what sizes GPU capacity, and ruled out otherwise', async () => {
    const file = 'deploy/kueue/gpu-values.yaml';
    expect(await coverage({ [file]: values }, { [file]: values.replace('count: 2', 'count: 4') })).toEqual([
      [file, 'not-followed', 'helm-values'],
    ]);
    expect(await coverage({ [file]: values }, { [file]: values.replace('tag: v1', 'tag: v2') })).toEqual([[file, 'not-capacity']]);
  });
});
