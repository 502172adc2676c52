import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// A clone of the repository must carry everything its tests, scripts and sources read: contributors
// get this folder and nothing beside it.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['src', 'test', 'bench', 'scripts', 'bin', '.ci'];
/** Copies of public files and recorded answers: their text is data, not paths we read. */
const DATA = [/^test\/corpus\//, /^test\/reference\//, /\/fixtures\//];
const CODE = /\.(ts|mts|js|mjs|cjs|sh)$|^\.ci\/run$/;

function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(rel);
    return DATA.some((re) => re.test(rel)) || !CODE.test(rel) ? [] : [rel];
  });
}

/** Every relative path literal in a file that, taken from the file's folder, lands outside the root. */
function escapingPaths(rel: string): string[] {
  const text = readFileSync(path.join(ROOT, rel), 'utf8');
  const dir = path.dirname(path.join(ROOT, rel));
  const out: string[] = [];
  // A test may hand a path to the code as data (a symlink's target, a path inside a fixture tree); it
  // says so on its line.
  const lines = text.split('\n').filter((line) => !/(hostile link target|fixture path): data, never read/.test(line));
  for (const match of lines.join('\n').matchAll(/['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g)) {
    const literal = match[1] ?? '';
    const target = path.resolve(dir, literal);
    if (path.relative(ROOT, target).startsWith('..')) out.push(literal);
  }
  // The folder the corpus once came from, named in pieces so that this file does not name it.
  if (new RegExp(['\\bshared', '(corpus|reference)\\b'].join('/')).test(text)) out.push('a folder beside the clone');
  return out;
}

describe('the repository stands alone', () => {
  it('no source, test, bench or script names a path outside the repository root', () => {
    const found = SCANNED.flatMap((dir) => files(dir).flatMap((rel) => escapingPaths(rel).map((literal) => `${rel}: ${literal}`)));
    expect(found).toEqual([]);
  });

  describe('the committed tree, copied to a folder with nothing beside it', () => {
    const tests = [
      'test/detect/infra-corpus.test.ts',
      'src/detect/kueue/kueue-corpus.test.ts',
      'src/detect/registry.test.ts',
      'src/detect/terraform/terraform-corpus.test.ts',
      'test/telemetry/opencost.test.ts',
    ];
    const parent = mkdtempSync(path.join(tmpdir(), 'gpu-justify-clone-'));
    const clone = path.join(parent, 'clone');
    afterAll(() => rmSync(parent, { recursive: true, force: true }));

    const git = spawnSync('git', ['-C', ROOT, 'rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' });
    it.skipIf(git.stdout.trim() !== 'true')(
      'passes the corpus tests there',
      () => {
        const archive = spawnSync('sh', ['-c', `mkdir "${clone}" && git -C "${ROOT}" archive --format=tar HEAD | tar -x -C "${clone}"`], {
          encoding: 'utf8',
        });
        expect(archive.stderr).toBe('');
        expect(readdirSync(parent)).toEqual(['clone']);
        // Installed packages are the only thing shared with this checkout.
        symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
        const report = path.join(parent, 'report.json');
        const args = ['run', '--reporter=json', `--outputFile=${report}`, ...tests];
        const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), ...args], {
          cwd: clone,
          encoding: 'utf8',
          env: { ...process.env, CI: 'true' },
          timeout: 240_000,
        });
        expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
        const counts = JSON.parse(readFileSync(report, 'utf8')) as {
          numPassedTests: number;
          numFailedTests: number;
          numTotalTestSuites: number;
        };
        expect(counts.numFailedTests).toBe(0);
        expect(counts.numPassedTests).toBeGreaterThan(100);
      },
      300_000,
    );
  });
});
