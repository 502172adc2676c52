import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'gpu-justify-install-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 170_000 });
}

// docs/install.md's path: `npm pack`, then `npm install -g` of the tarball, then the CLI from a
// directory that is no checkout. Packing compiles dist/ (prepare); production dependencies come from
// npm's cache or the registry.
describe('the release tarball', () => {
  it('installs with npm install -g and runs the CLI outside the checkout', () => {
    const pack = run('npm', ['pack', '--pack-destination', tmp], ROOT);
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = readdirSync(tmp).find((f) => /^gpu-justify-.*\.tgz$/.test(f));
    expect(tarball).toBeDefined();

    const prefix = join(tmp, 'prefix');
    const install = run(
      'npm',
      ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', join(tmp, tarball as string)],
      tmp,
    );
    expect(install.status, install.stderr).toBe(0);

    const elsewhere = mkdtempSync(join(tmp, 'repo-'));
    const bin = join(prefix, 'bin', 'gpu-justify');
    const version = run(bin, ['--version'], elsewhere);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const demo = run(bin, ['demo'], elsewhere);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('gpu-justify:comment');
  }, 180_000);
});
