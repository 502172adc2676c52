import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from '../detect-changes.js';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import { callersOf } from './module-callers.js';
import { mergedModuleSources } from './merged-module-sources.js';

/**
 * Terraform merges a folder's override files (`override.tf`, `*_override.tf`, their JSON forms)
 * into its blocks before it plans: a value an override file gives (a call's argument, a variable's
 * default) is what the module gets, and a call's source is the merged one. What follows a value
 * through the module (terraform-feeds, terraform-value-reach, module-callers) reads that merged view.
 */

const GPU_MODULE = `variable "trainers" {}

resource "aws_instance" "trainer" {
  count         = var.trainers
  ami           = "ami-123"
  instance_type = "p5.48xlarge"
}
`;

const OVERRIDES = ['main_override.tf', 'override.tf', 'zz_override.tf'];
const flagged = (r: DetectedChanges) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

describe('a value an override file gives', () => {
  for (const override of OVERRIDES) {
    it(`${override}: a call's argument, the call's source in the primary file, 3 → 9 is not followed`, async () => {
      const tree = (n: number) => ({
        'main.tf': 'module "pool" {\n  source   = "./modules/pool"\n  trainers = 1\n}\n',
        [override]: `module "pool" {\n  trainers = ${n}\n}\n`,
        'modules/pool/main.tf': GPU_MODULE,
      });
      const r = await detectPr(tree(3), tree(9));
      expect(r.changes).toEqual([]);
      expect(flagged(r)).toEqual([override]);
    });

    it(`${override}: a variable's default overridden, 3 → 9, is not followed`, async () => {
      const tree = (n: number) => ({
        'infra/main.tf': GPU_MODULE.replace('variable "trainers" {}', 'variable "trainers" {\n  default = 1\n}'),
        [`infra/${override}`]: `variable "trainers" {\n  default = ${n}\n}\n`,
      });
      const r = await detectPr(tree(3), tree(9));
      expect(r.changes).toEqual([]);
      expect(flagged(r)).toEqual([`infra/${override}`]);
    });
  }
});

describe('the source of a call as override files merge it', () => {
  it('an override replacing a source wins, in lexical order; one giving arguments keeps the primary source', () => {
    const sources = mergedModuleSources([
      { path: 'b_override.tf', text: 'module "a" {\n  source = "./second"\n}\n' },
      { path: 'a_override.tf', text: 'module "a" {\n  source = "./first"\n}\nmodule "b" {\n  x = 1\n}\n' },
      { path: 'main.tf', text: 'module "a" {\n  source = "./primary"\n}\nmodule "b" {\n  source = "./kept"\n}\n' },
    ]);
    expect(Object.fromEntries(sources)).toEqual({ a: './second', b: './kept' });
  });

  it('a folder is a caller of the module its override points a call at, and not of the one it points away from', async () => {
    const files: Record<string, string> = {
      'envs/prod/main.tf': 'module "pool" {\n  source = "../../modules/old"\n}\n',
      'envs/prod/main_override.tf': 'module "pool" {\n  source = "../../modules/gpu"\n}\n',
    };
    const reader = { label: 'head', read: (p: string) => Promise.resolve(files[p] ?? null) };
    const io = {
      base: reader,
      head: reader,
      list: (dir: string) => Promise.resolve(Object.keys(files).filter((p) => p.startsWith(`${dir}/`) || dir === '')),
      dirs: (dir: string) => Promise.resolve(dir === '' ? ['envs', 'modules'] : dir === 'envs' ? ['envs/prod'] : []),
    };
    expect(await callersOf('modules/gpu', io)).toEqual(['envs/prod']);
    expect(await callersOf('modules/old', io)).toEqual([]);
  });
});
