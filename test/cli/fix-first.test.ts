import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const DEMO = fileURLToPath(new URL('../../fixtures/demo', import.meta.url));

/** The comment up to its first fold: what a reader sees without unfolding anything. */
const firstScreen = (comment: string) => comment.slice(0, comment.indexOf('<details>'));

describe('the fix on the first screen', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gpu-justify-fix-first-'));
    cpSync(path.join(DEMO, 'base'), path.join(dir, 'base'), { recursive: true });
    cpSync(path.join(DEMO, 'head'), path.join(dir, 'head'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const edit = (side: string, file: string, from: string, to: string) => {
    const p = path.join(dir, side, file);
    const text = readFileSync(p, 'utf8');
    expect(text).toContain(from);
    writeFileSync(p, text.replace(from, to));
  };

  // Typos of field names and of values in the catalog the PR brings, each with the line it is on.
  it.each([
    ['a field', '    gpusPerJob: 2\n', '    gpusPerJb: 2\n', 'gpu-workloads.yaml:6', 'write `gpusPerJob`, not `gpusPerJb`'],
    ['another field', '    runtime: 2h\n', '    runtme: 2h\n', 'gpu-workloads.yaml:7', 'write `runtime`, not `runtme`'],
    ['a nested field', '      deadline: "06:00"', '      dedline: "06:00"', 'gpu-workloads.yaml:11', 'write `deadline`, not `dedline`'],
    ['a value', '    type: batch\n', '    type: bacth\n', 'gpu-workloads.yaml:4', 'write `batch`, not `bacth`'],
  ])('a catalog typo in %s: the correction and its line lead, not "add a valid entry"', async (_, from, to, at, fix) => {
    edit('head', 'gpu-workloads.yaml', from, to);
    const { code, stdout } = await runCli('review', '--base', path.join(dir, 'base'), '--head', path.join(dir, 'head'));
    expect(code).toBe(0);
    const screen = firstScreen(stdout);
    expect(screen).toContain(
      `**Do this** so it can be judged:\n\n- Fix \`${at}\`: ${fix}; until then nightly-eval is left out of the need`,
    );
    expect(screen).not.toMatch(/Add a valid catalog entry/);
    // The catalog is the review's own input: a typo in it is not a capacity file left unfollowed.
    const json = JSON.parse(
      (await runCli('review', '--base', path.join(dir, 'base'), '--head', path.join(dir, 'head'), '--format', 'json')).stdout,
    ) as {
      coverage: { file: string; state: string }[];
      missingEvidence: { code?: string; how: string }[];
    };
    expect(json.coverage.find((c) => c.file === 'gpu-workloads.yaml')?.state).toBe('read');
    expect(json.missingEvidence.map((m) => m.code)).toEqual(['catalog-entry-invalid']);
    expect(json.missingEvidence[0]?.how).toContain(fix);
  });

  it('a catalog error with no likely correction: its line and message lead', async () => {
    edit('head', 'gpu-workloads.yaml', '    runtime: 2h\n', '    runtime: two hours\n');
    const screen = firstScreen((await runCli('review', '--base', path.join(dir, 'base'), '--head', path.join(dir, 'head'))).stdout);
    expect(screen).toMatch(
      /- Fix `gpu-workloads\.yaml:7`: workloads\\\[0\\\]\.runtime: [^\n]*; until then nightly-eval is left out of the need/,
    );
  });

  it('a broken policy: fix it on the base branch, which it names; the pull request’s copy is not read', async () => {
    edit('base', '.github/gpu-justify.yml', 'mode: advise', 'mode: enforc');
    const screen = firstScreen((await runCli('review', '--base', path.join(dir, 'base'), '--head', path.join(dir, 'head'))).stdout);
    expect(screen).toContain(
      "**The gpu-justify policy is invalid: fix `.github/gpu-justify.yml` on the base branch**; this pull request's copy is not read",
    );
    expect(screen).toContain('(did you mean enforce?)');
  });
});
