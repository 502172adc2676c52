import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DIR } from '../../src/cli/commands/demo.js';
import { runCli as run } from './run-cli.js';

/** `--fail-on` as a pipeline gate: as closed as the App's enforce-mode check. */

let dir: string;
let base: string;
let head: string;
const QUEUES = 'clusters/prod/kueue/cluster-queues.yaml';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gpu-justify-fail-on-'));
  base = join(dir, 'base');
  head = join(dir, 'head');
  await cp(join(DEMO_DIR, 'base'), base, { recursive: true });
  await cp(join(DEMO_DIR, 'head'), head, { recursive: true });
  // The head's capacity file, broken: what it declares cannot be known.
  await writeFile(join(head, QUEUES), 'apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nspec: [unclosed\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('review --fail-on', () => {
  it('fails on insufficient evidence, whichever verdict it names', async () => {
    for (const failOn of ['not-justified', 'partially-justified']) {
      const { code, stdout } = await run('review', '--base', base, '--head', head, '--format', 'json', '--fail-on', failOn);
      expect((JSON.parse(stdout) as { verdict: string }).verdict).toBe('insufficient-evidence');
      expect(code).toBe(1);
    }
  });

  it('passes insufficient evidence only when told so explicitly', async () => {
    const { code } = await run('review', '--base', base, '--head', head, '--fail-on', 'not-justified', '--allow-insufficient-evidence');
    expect(code).toBe(0);
  });

  it('refuses the opt-out without --fail-on', async () => {
    const { code, stderr } = await run('review', '--base', base, '--head', head, '--allow-insufficient-evidence');
    expect(code).toBe(2);
    expect(stderr).toContain('--allow-insufficient-evidence only means something with --fail-on');
  });

  it('fails on an invalid policy when the change adds GPUs, naming the file, the line and the value meant', async () => {
    const policy = join(dir, 'policy.yml');
    await writeFile(policy, 'mode: enforse\n');
    const demoHead = join(DEMO_DIR, 'head');
    const { code, stdout } = await run('review', '--base', base, '--head', demoHead, '--config', policy, '--fail-on', 'not-justified');
    expect(code).toBe(1);
    expect(stdout).toContain('The gpu-justify policy is invalid');
    expect(stdout).toContain('did you mean enforce?');
    expect(stdout).toContain(`${policy}:1`);
  });

  it('takes a policy that _extends another as not known whole: enforce, saying how to give it', async () => {
    const policy = join(dir, 'inherits.yml');
    await writeFile(policy, 'mode: advise\n_extends: acme/.github\n');
    const demoHead = join(DEMO_DIR, 'head');
    const { stdout } = await run('review', '--base', base, '--head', demoHead, '--config', policy);
    expect(stdout).toContain('Mode: enforce (the policy could not be read)');
    expect(stdout).toContain(`${policy}:2`);
    expect(stdout).toContain('review with --pr');
  });

  it('still passes a change that adds no GPUs', async () => {
    const { code } = await run('review', '--base', base, '--head', base, '--fail-on', 'not-justified');
    expect(code).toBe(0);
  });
});
