import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isUnit, testFiles } from './projects.js';

/**
 * The unit project runs its files in one module graph per worker (`isolate: false` in
 * vitest.config.ts): a file that mocks a module, stubs a global or the environment, fakes the
 * clock or changes the working directory would leak into every file after it in that worker,
 * and a test would pass or fail by the order files are dealt. Such a test belongs in the
 * integration project, where each file gets a fresh graph.
 */
const LEAKS: readonly [RegExp, string][] = [
  [
    /\bvi\s*\.\s*(?:mock|doMock|unmock|stubEnv|stubGlobal|useFakeTimers|spyOn|mocked|resetModules)\s*\(/,
    'a vi.* call that outlives the file',
  ],
  [/\bprocess\s*\.\s*env\s*(?:\.\s*\w+|\[[^\]]+\])\s*(?:=(?!=)|\?\?=|\|\|=)/, 'an environment variable set'],
  [/\bdelete\s+process\s*\.\s*env\b/, 'an environment variable deleted'],
  [/\bprocess\s*\.\s*(?:chdir|on|once|setMaxListeners)\s*\(/, 'a process-wide setting or listener'],
  [/\bglobalThis\s*(?:\.\s*\w+|\[[^\]]+\])\s*=(?!=)/, 'a global set'],
];
/** Module-level state of a helper: kept from one test file to the next. Test files themselves are evaluated afresh. */
const HELPER_STATE: readonly [RegExp, string][] = [[/^(?:export\s+)?(?:let|var)\s/, 'a module-level variable in a shared helper']];

/**
 * The unit test files and the test helpers they import, directly or through other helpers
 * (files under test/ and test files under src/; the code under test is not walked).
 */
function unitSources(): string[] {
  const seen = new Set<string>();
  const queue = testFiles().filter(isUnit);
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)\.js'/g)) {
      const target = path.posix.normalize(`${path.posix.dirname(file)}/${spec}.ts`);
      if ((target.startsWith('test/') || target.endsWith('.test.ts')) && existsSync(target)) queue.push(target);
    }
  }
  // This file spells the leaks out as examples.
  const self = path.relative(process.cwd(), fileURLToPath(import.meta.url)).replaceAll('\\', '/');
  return [...seen].filter((file) => file !== self).sort();
}

/**
 * Helpers whose module-level state is restarted before each file by test/suite/per-file-state.ts
 * (a count a test file's expectations depend on), and so may hold it.
 */
const RESTARTED_PER_FILE = new Set(['test/factories.ts']);

/** The leaks `text` holds, as `line: what`. */
function leaksIn(text: string, helper = false): string[] {
  const patterns = helper ? [...LEAKS, ...HELPER_STATE] : LEAKS;
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    // A helper's functions run only when a test calls them (the integration helpers start
    // servers that listen on the process): what it does on import is its unindented lines.
    if (helper && /^\s/.test(line)) return;
    for (const [pattern, what] of patterns) if (pattern.test(line)) found.push(`${i + 1}: ${what}`);
  });
  return found;
}

describe('the unit project shares one module graph per worker', () => {
  it('no unit test file or helper of theirs leaves global state behind', () => {
    const sources = unitSources();
    expect(sources.length).toBeGreaterThan(100);
    const helper = (file: string) => !file.endsWith('.test.ts') && !RESTARTED_PER_FILE.has(file);
    const leaks = sources.flatMap((file) => leaksIn(readFileSync(file, 'utf8'), helper(file)).map((leak) => `${file}:${leak}`));
    expect(leaks).toEqual([]);
  });

  it('finds each kind of leak, and not a read of the environment', () => {
    for (const text of [
      "vi.mock('../src/x.js')",
      "vi.stubEnv('A', '1')",
      'vi.useFakeTimers()',
      "vi.spyOn(console, 'warn')",
      "process.env.GPU_JUSTIFY_X = '1'",
      "process.env['A'] ??= 'b'",
      'delete process.env.A',
      "process.chdir('/tmp')",
      "process.on('warning', log)",
      'globalThis.fetch = fake',
    ]) {
      expect(leaksIn(text), text).toHaveLength(1);
    }
    for (const text of [
      'const seed = Number(process.env.VARIANTS_SEED ?? 26)',
      "if (process.env.A === 'b') skip()",
      'const f = globalThis.fetch',
    ]) {
      expect(leaksIn(text), text).toEqual([]);
    }
  });
});
