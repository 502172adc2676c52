import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { MAX_VAR_SETS } from './root-var-files.js';

/** A PR between two trees whose readers list folders too, as the CLI's and the App's do. */
const review = async (base: Tree, head: Tree) => {
  const got = await detectPr(base, head);
  return {
    changes: got.changes.map((c) => [c.name, c.gpusBefore, c.gpusAfter]).sort(),
    states: got.coverage.map((c) => [c.file, c.state, ...(c.notFollowed ?? []).map((n) => n.reason)]),
  };
};

/**
 * A root module in the shape of 2i2c-org/infrastructure's `terraform/gcp`: one GKE pool per entry
 * of `var.notebook_nodes` (empty by default), its GPUs from `lookup(each.value, "gpu", {})`.
 */
const root = (max: number): Tree => ({
  'terraform/gcp/variables.tf': [
    'variable "notebook_nodes" {',
    '  type    = map(object({ min : number, max : number, machine_type : string, gpu : optional(object({ enabled : bool, type : string, count : number }), { enabled = false, type = "", count = 0 }) }))',
    '  default = {}',
    '}',
    'variable "project_id" {',
    '  type = string',
    '}',
    '',
  ].join('\n'),
  'terraform/gcp/cluster.tf': [
    'resource "google_container_node_pool" "notebook" {',
    '  for_each = var.notebook_nodes',
    '  name     = "nb-${each.key}"',
    '  project  = var.project_id',
    '  cluster  = "hub"',
    '  autoscaling {',
    '    min_node_count = each.value.min',
    `    max_node_count = min(each.value.max, ${max})`,
    '  }',
    '  node_config {',
    '    machine_type = each.value.machine_type',
    '    dynamic "guest_accelerator" {',
    '      for_each = each.value.gpu.enabled ? [each.value.gpu] : []',
    '      content {',
    '        type  = guest_accelerator.value.type',
    '        count = guest_accelerator.value.count',
    '      }',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n'),
});

/** A project's values: a T4 pool of up to 20 nodes, one GPU each. */
const HCL_VALUES = [
  'project_id = "two-eye-two-see"',
  'notebook_nodes = {',
  '  "gpu-t4" = { min = 0, max = 20, machine_type = "n1-standard-8", gpu = { enabled = true, type = "nvidia-tesla-t4", count = 1 } }',
  '}',
  '',
].join('\n');
const JSON_VALUES = `${JSON.stringify({
  project_id: 'two-eye-two-see',
  notebook_nodes: {
    'gpu-t4': { min: 0, max: 20, machine_type: 'n1-standard-8', gpu: { enabled: true, type: 'nvidia-tesla-t4', count: 1 } },
  },
})}\n`;

/** Where the variable file is, and what (if anything) names it: every place the root is applied from. */
const PLACES: { where: string; file: string; runner?: [string, (file: string) => string] }[] = [
  { where: 'projects/ below the root', file: 'terraform/gcp/projects/two-eye.tfvars' },
  { where: 'envs/<env>/ below the root', file: 'terraform/gcp/envs/prod/values.tfvars' },
  { where: 'a folder beside the root', file: 'terraform/environments/two-eye.tfvars' },
  { where: 'beside the root, not auto-loaded', file: 'terraform/gcp/two-eye.tfvars' },
  {
    where: 'named by a workflow with a matrix placeholder',
    file: 'config/clusters/two-eye/cluster.tfvars',
    runner: [
      '.github/workflows/deploy.yaml',
      (file) =>
        `run: terraform -chdir=terraform/gcp apply -var-file=../../config/clusters/\${{ matrix.cluster }}/${file.slice(file.lastIndexOf('/') + 1)}`,
    ],
  },
  {
    where: 'named by a Makefile',
    file: 'deploy/vars/hub.tfvars',
    runner: ['Makefile', (file) => `plan:\n\tcd terraform/gcp && terraform plan -var-file ../../${file}`],
  },
];

describe('a root module applied with variable files kept elsewhere', () => {
  for (const place of PLACES) {
    for (const json of [false, true]) {
      it(`reads the root with its values: ${place.where}${json ? ', in JSON' : ''}`, async () => {
        const file = json ? `${place.file}.json` : place.file;
        const around: Tree = {
          [file]: json ? JSON_VALUES : HCL_VALUES,
          ...(place.runner ? { [place.runner[0]]: place.runner[1](file) } : {}),
        };
        // The change is in the root only: the cap on every pool's nodes, 10 → 16 (20 wanted, 1 T4 each).
        const got = await review({ ...root(10), ...around }, { ...root(16), ...around });
        expect(got.changes).toEqual([['nb-gpu-t4', 10, 16]]);
        expect(got.states).toEqual([['terraform/gcp/cluster.tf', 'read']]);
      });
    }
  }

  it('reads the root once per variable file, each pool named by its file', async () => {
    const other = HCL_VALUES.replace('max = 20', 'max = 4').replace('two-eye-two-see', 'other');
    const around: Tree = { 'terraform/gcp/projects/a.tfvars': HCL_VALUES, 'terraform/gcp/projects/b.tfvars': other };
    const got = await review({ ...root(10), ...around }, { ...root(16), ...around });
    expect(got.changes).toEqual([['nb-gpu-t4 [terraform/gcp/projects/a.tfvars]', 10, 16]]);
  });

  it('a change in the root that leaves every application alone is no change', async () => {
    const around: Tree = { 'terraform/gcp/projects/a.tfvars': HCL_VALUES };
    const got = await review({ ...root(30), ...around }, { ...root(40), ...around });
    expect(got.changes).toEqual([]);
    expect(got.states).toEqual([['terraform/gcp/cluster.tf', 'read']]);
  });

  it('a variable file that sets what the root does not declare is not applied to it', async () => {
    const around: Tree = { 'terraform/gcp/projects/backend.tfvars': 'bucket = "state"\nprefix = "gcp"\n' };
    const got = await review({ ...root(10), ...around }, { ...root(16), ...around });
    // Read with the defaults: no pool at all, as Terraform plans it without a var-file.
    expect(got.changes).toEqual([]);
  });

  it('a variable file another root near it declares too is applied to neither', async () => {
    const twin = { 'terraform/gcp-twin/variables.tf': root(0)['terraform/gcp/variables.tf'] ?? '' };
    const around: Tree = { ...twin, 'terraform/environments/two-eye.tfvars': HCL_VALUES };
    const got = await review({ ...root(10), ...around }, { ...root(16), ...around });
    // Which root `-var-file` sets it with is not in the repository (tfvars-follow.ts says the same of a changed one).
    expect(got.changes).toEqual([]);
  });

  it('changed together, the root and its variable file are one reading', async () => {
    const path = 'terraform/gcp/projects/a.tfvars';
    const got = await review({ ...root(10), [path]: HCL_VALUES }, { ...root(16), [path]: HCL_VALUES.replace('count = 1', 'count = 2') });
    expect(got.changes).toEqual([['nb-gpu-t4', 10, 32]]);
    expect(got.states.map((s) => s[1])).toEqual(['read', 'read']);
  });

  it(`past ${MAX_VAR_SETS} variable files the root is not followed`, async () => {
    const around: Tree = {};
    for (let i = 0; i <= MAX_VAR_SETS; i++) around[`terraform/gcp/projects/p${i}.tfvars`] = HCL_VALUES;
    const got = await review({ ...root(10), ...around }, { ...root(16), ...around });
    expect(got.states).toEqual([['terraform/gcp/cluster.tf', 'not-followed', 'unscanned']]);
  });
});

describe('a variable-file set added or removed: every other application keeps its pools', () => {
  /** A root whose GPU pool's nodes come from `var.max`; `gpus` per node (a2-highgpu-1g or -2g). */
  const sized = (gpus: 1 | 2, note = ''): Tree => ({
    'infra/gke/main.tf': [
      `# ${note}`,
      'variable "max" {',
      '  type    = number',
      '  default = 1',
      '}',
      'resource "google_container_node_pool" "gpu" {',
      '  name     = "gpu"',
      '  location = "us-central1-a"',
      '  cluster  = "hub"',
      '  autoscaling {',
      '    max_node_count = var.max',
      '  }',
      '  node_config {',
      `    machine_type = "a2-highgpu-${gpus}g"`,
      '  }',
      '}',
      '',
    ].join('\n'),
  });
  const SETS = ['dev', 'prod', 'staging', 'test'];
  const maxOf = (env: string) => 2 ** (SETS.indexOf(env) + 1);
  const sets = (envs: readonly string[]): Tree =>
    Object.fromEntries(envs.map((e) => [`infra/gke/envs/${e}.tfvars`, `max = ${maxOf(e)}\n`]));
  const total = (envs: readonly string[], gpus: number) => envs.reduce((n, e) => n + maxOf(e) * gpus, 0);
  const ROOT: [what: string, base: Tree, head: Tree, gpus: [number, number]][] = [
    ['the root unchanged', sized(1), sized(1), [1, 1]],
    ['the root changed elsewhere', sized(1), sized(1, 'a comment'), [1, 1]],
    ['the root given 2 GPUs a node', sized(1), sized(2), [1, 2]],
  ];
  for (const n of [1, 2, 3])
    for (const [what, baseRoot, headRoot, [before, after]] of ROOT)
      for (const [change, baseEnvs, headEnvs] of [
        ['added', SETS.slice(0, n), SETS.slice(0, n + 1)],
        ['removed', SETS.slice(0, n + 1), SETS.slice(0, n)],
      ] as const)
        it(`${n} set(s), one ${change}, ${what}: the net is what the applications plan`, async () => {
          const got = await detectPr({ ...baseRoot, ...sets(baseEnvs) }, { ...headRoot, ...sets(headEnvs) });
          expect(got.changes.reduce((sum, c) => sum + c.delta, 0)).toBe(total(headEnvs, after) - total(baseEnvs, before));
          // One row per application whose GPUs changed: none for a set left alone by a root left alone.
          const moving = before === after ? 1 : Math.max(baseEnvs.length, headEnvs.length);
          expect(got.changes).toHaveLength(moving);
          expect(got.coverage.every((c) => c.state === 'read')).toBe(true);
        });
});

describe('terraform -chdir=DIR: the line applies DIR, its variable files taken from there', () => {
  const twin = { 'terraform/gcp-twin/variables.tf': root(0)['terraform/gcp/variables.tf'] ?? '' };
  const RUNNERS: [where: string, path: string, chdir: string][] = [
    ['a workflow, from the top', '.github/workflows/plan.yaml', 'terraform/gcp'],
    ['a workflow, quoted', '.github/workflows/plan.yaml', '"terraform/gcp"'],
    ['a workflow, with ./ and a trailing slash', '.github/workflows/plan.yaml', './terraform/gcp/'],
    ['a script, from its folder', 'scripts/plan.sh', '../terraform/gcp'],
    ['a workflow, a placeholder for the root', '.github/workflows/plan.yaml', 'terraform/${{ matrix.cloud }}'],
  ];
  const FILES: [where: string, file: string, named: string][] = [
    ['below the root', 'terraform/gcp/envs/prod.tfvars', 'envs/prod.tfvars'],
    ['elsewhere, up from the root', 'config/prod/cluster.tfvars', '../../config/prod/cluster.tfvars'],
  ];
  for (const [where, runner, chdir] of RUNNERS)
    for (const [at, file, named] of FILES)
      it(`${where}; the file ${at}`, async () => {
        // A twin root declares the same variables: only -chdir says which root the file is for.
        const around: Tree = { ...twin, [file]: HCL_VALUES, [runner]: `run: terraform -chdir=${chdir} plan -var-file=${named}\n` };
        const got = await review({ ...root(10), ...around }, { ...root(16), ...around });
        expect(got.changes).toEqual([['nb-gpu-t4', 10, 16]]);
        expect(got.states).toEqual([['terraform/gcp/cluster.tf', 'read']]);
      });

  it("another root's line is not this root's", async () => {
    const around: Tree = {
      'terraform/gcp/envs/prod.tfvars': HCL_VALUES,
      '.github/workflows/plan.yaml': 'run: terraform -chdir=terraform/aws plan -var-file=../gcp/envs/prod.tfvars\n',
    };
    const got = await review({ ...root(10), ...around }, { ...root(16), ...around });
    // Still found beside the root (root-var-files.ts), once, as its own application.
    expect(got.changes).toEqual([['nb-gpu-t4', 10, 16]]);
    const twinAround: Tree = { ...twin, ...around };
    // With a twin, nothing says which root it is for: read with the defaults (no pool).
    expect((await review({ ...root(10), ...twinAround }, { ...root(16), ...twinAround })).changes).toEqual([]);
  });
});
