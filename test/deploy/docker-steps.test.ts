import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/docker-steps.sh');
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
// The project's one exact Node pin: CI installs it, the image's base must be the same release.
const NODE_PIN = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
const tmp = mkdtempSync(join(tmpdir(), 'gpu-justify-dockerfile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function replay(dockerfile?: string, timeout = 170_000) {
  let args: string[] = [];
  if (dockerfile !== undefined) {
    const file = join(tmp, `Dockerfile.${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, dockerfile);
    args = [file];
  }
  return spawnSync('bash', [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8', timeout });
}

/** The context paths COPY takes (not `--from` a stage). */
function contextSources(dockerfile: string): string[] {
  return dockerfile
    .split('\n')
    .filter((l) => /^COPY\s/.test(l) && !/--from=/.test(l))
    .flatMap((l) => l.trim().split(/\s+/).slice(1, -1));
}

/** .dockerignore as Docker reads it: the last matching pattern wins, `!` re-includes. */
function ignored(path: string, rules: string[]): boolean {
  const parts = path.split('/');
  let out = false;
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join('/');
    for (const rule of rules) {
      const negate = rule.startsWith('!');
      const glob = negate ? rule.slice(1) : rule;
      const re = new RegExp(
        `^${glob
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*/g, '\0')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]')
          .replace(/\0/g, '.*')}$`,
      );
      if (re.test(prefix)) out = !negate;
    }
  }
  return out;
}

describe('Dockerfile', () => {
  it('pins the Node release of .node-version, runs as a non-root user and checks health without curl', () => {
    expect(NODE_PIN).toMatch(/^24\.\d+\.\d+$/);
    const bases = [...DOCKERFILE.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases)
      expect(base).toMatch(new RegExp(`^node:${NODE_PIN.replace(/\./g, '\\.')}-bookworm-slim(@sha256:[0-9a-f]{64})?$`));
    expect(DOCKERFILE).toMatch(/^USER\s+(?!root|0\b)\S+/m);
    expect(DOCKERFILE).toMatch(/^HEALTHCHECK [^]*?CMD \["node", "-e", .*\/ping/m);
    expect(DOCKERFILE).toMatch(/npm ci --omit=dev/);
  });

  it('.dockerignore keeps out secrets and builds, but nothing the Dockerfile copies', () => {
    const rules = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    for (const secret of ['.env', 'key.pem', 'node_modules', 'dist', '.git']) expect(ignored(secret, rules), secret).toBe(true);
    const sources = contextSources(DOCKERFILE);
    expect(sources).toEqual(expect.arrayContaining(['package-lock.json', 'src', 'bin', 'fixtures/demo']));
    for (const source of sources) expect(ignored(source, rules), source).toBe(false);
    // The matcher itself: fixtures/ is out except the demo.
    expect(ignored('fixtures/loadtests', rules)).toBe(true);
  });

  it('the replay refuses an unpinned base and an instruction it does not know', () => {
    const unpinned = replay(DOCKERFILE.replace(/^FROM node:[\d.]+-bookworm-slim/m, 'FROM node:24-bookworm-slim'));
    expect(unpinned.status).toBe(1);
    expect(unpinned.stderr).toMatch(/not pinned to the Node release of .node-version/);
    const unknown = replay(`FROM node:${NODE_PIN}-bookworm-slim AS build\nONBUILD RUN true\n`);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/ONBUILD is not replayed/);
  });

  // Both npm ci runs (the second from npm's cache), then the App's start: ~40 s on two cores.
  it('its steps build the App, which starts with dummy credentials and passes its HEALTHCHECK', () => {
    const run = replay();
    expect(run.status, run.stderr.slice(-4000)).toBe(0);
    expect(run.stderr).toContain('docker-steps: health check passes');
    expect(run.stderr).toContain('docker-steps: unsigned webhook refused (400)');
    expect(run.stderr).toMatch(/docker-steps: ok\n$/);
  }, 180_000);
});
