import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from './detect-changes.js';
import { detectPr } from '../../test/detect/real-fixtures.js';
import { tfSettings } from './ci-variable-settings.js';

/**
 * Terraform variables set by CI jobs, scripts and Makefiles: the review reads the module with its
 * defaults, so a changed `TF_VAR_*`, `-var` or `-var-file` that reaches a GPU pool (counted or
 * not) is not followed, and one that reaches only a CPU pool is no change. Each setting is
 * written in every form the files here use.
 */

const MAIN = `resource "google_container_node_pool" "train" {
  name       = "train"
  cluster    = "c"
  node_count = var.train_nodes
  node_config {
    machine_type = "a2-highgpu-1g"
  }
}

resource "google_container_node_pool" "web" {
  name       = "web"
  cluster    = "c"
  node_count = var.web_nodes
  node_config {
    machine_type = "e2-standard-8"
  }
}
`;
const VARIABLES = `variable "train_nodes" {
  type    = number
  default = 2
}

variable "web_nodes" {
  type    = number
  default = 3
}
`;

/** A CI file setting `name` to `value`, in each of the forms the tool is judged on. */
const FORMS: Record<string, (name: string, value: string) => [string, string]> = {
  'workflow env': (n, v) => [
    '.github/workflows/apply.yml',
    `on: push\njobs:\n  apply:\n    runs-on: ubuntu-latest\n    env:\n      TF_VAR_${n}: ${v}\n    steps:\n      - run: terraform -chdir=infra apply -auto-approve\n`,
  ],
  'workflow -var': (n, v) => [
    '.github/workflows/apply.yml',
    `on: push\njobs:\n  apply:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: infra\n    steps:\n      - run: terraform apply -auto-approve -var "${n}=${v}"\n`,
  ],
  'gitlab variables': (n, v) => [
    '.gitlab-ci.yml',
    `variables:\n  TF_ROOT: infra\n  TF_VAR_${n}: "${v}"\napply:\n  script:\n    - cd infra && terraform apply -auto-approve\n`,
  ],
  'makefile -var=': (n, v) => ['Makefile', `apply:\n\tterraform -chdir=infra apply -var=${n}=${v}\n`],
  'script --var': (n, v) => ['scripts/apply.sh', `#!/bin/sh\nset -e\ncd "$(dirname "$0")/../infra"\nterraform apply --var '${n}=${v}'\n`],
  envrc: (n, v) => ['infra/.envrc', `export TF_VAR_${n}=${v}\n`],
};

const tree = (form: string, name: string, value: string): Record<string, string> => {
  const [path, text] = (FORMS[form] ?? (() => ['', '']))(name, value);
  return { 'infra/main.tf': MAIN, 'infra/variables.tf': VARIABLES, [path]: text };
};
const notFollowed = (r: DetectedChanges) => r.coverage.filter((c) => c.state === 'not-followed');

describe('Terraform variables set by CI', () => {
  it.each(Object.keys(FORMS))('%s: a GPU pool count set by CI is not followed', async (form) => {
    const r = await detectPr(tree(form, 'train_nodes', '4'), tree(form, 'train_nodes', '8'));
    expect(r.changes).toEqual([]);
    expect(notFollowed(r).map((c) => c.notFollowed?.[0]?.inputs?.[0])).toEqual(['var.train_nodes']);
  });

  it.each(Object.keys(FORMS))('%s: a CPU pool count set by CI is no change', async (form) => {
    const r = await detectPr(tree(form, 'web_nodes', '4'), tree(form, 'web_nodes', '8'));
    expect(notFollowed(r)).toEqual([]);
  });

  it.each(Object.keys(FORMS))('%s: the module found without listing folders', async (form) => {
    const r = await detectPr(tree(form, 'train_nodes', '4'), tree(form, 'train_nodes', '8'), false);
    expect(notFollowed(r).length).toBe(1);
  });

  it('a variable file passed with -var-file: its changed values are judged, a CPU one is no change', async () => {
    const wf = (file: string) =>
      `on: push\njobs:\n  a:\n    steps:\n      - run: terraform -chdir=infra apply -var-file=envs/${file}.tfvars\n`;
    const envs = {
      'infra/envs/small.tfvars': 'train_nodes = 1\nweb_nodes = 2\n',
      'infra/envs/big.tfvars': 'train_nodes = 6\nweb_nodes = 2\n',
    };
    const base = { 'infra/main.tf': MAIN, 'infra/variables.tf': VARIABLES, ...envs, '.github/workflows/a.yml': wf('small') };
    const r = await detectPr(base, { ...base, '.github/workflows/a.yml': wf('big') });
    expect(notFollowed(r).map((c) => c.notFollowed?.[0]?.inputs?.[0])).toEqual(['var.train_nodes']);
    const cpu = { ...envs, 'infra/envs/big.tfvars': 'train_nodes = 1\nweb_nodes = 9\n' };
    const r2 = await detectPr({ ...base, ...cpu }, { ...base, ...cpu, '.github/workflows/a.yml': wf('big') });
    expect(notFollowed(r2)).toEqual([]);
  });

  it('a variable file that cannot be read is not followed where the tree names GPUs', async () => {
    const wf = (file: string) => `on: push\njobs:\n  a:\n    steps:\n      - run: terraform -chdir=infra apply -var-file=${file}\n`;
    const base = { 'infra/main.tf': MAIN, 'infra/variables.tf': VARIABLES, '.github/workflows/a.yml': wf('a.tfvars') };
    const r = await detectPr(base, { ...base, '.github/workflows/a.yml': wf('$ENV.tfvars') });
    expect(notFollowed(r).length).toBe(1);
  });

  it('a variable no module of a fully listed tree declares is no change', async () => {
    const r = await detectPr(tree('workflow env', 'region', 'us-east1'), tree('workflow env', 'region', 'europe-west4'));
    expect(notFollowed(r)).toEqual([]);
  });

  it('reads each form of setting, and not other tools’ -var', () => {
    const s = tfSettings(
      [
        'env:',
        '  TF_VAR_a: "1"',
        'export TF_VAR_b=2 # two',
        '$env:TF_VAR_c = "3"',
        'TF_VAR_d ?= 4',
        'terraform plan -var="e=5" -var f=6 --var=\'g=7\' -var-file=x.tfvars',
        'packer build -var h=8 .',
        '# TF_VAR_i=9',
      ].join('\n'),
    );
    expect(Object.fromEntries([...s.vars].map(([k, v]) => [k, v.value]))).toEqual({
      a: '1',
      b: '2',
      c: '3',
      d: '4',
      e: '5',
      f: '6',
      g: '7',
    });
    expect(s.varFiles.map((f) => f.path)).toEqual(['x.tfvars']);
  });
});
