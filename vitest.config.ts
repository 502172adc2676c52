import { readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Tests of one part sit beside its code (src/detect/<format>/); tests across parts live in test/.
const TESTS = ['src', 'test'].flatMap((root) =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${root}/${file.replaceAll('\\', '/')}`),
);

// `unit`: the stages that take data and return data (domain, detect, workloads, analysis, report)
// and tests of pure code, run with no system program and no server. Everything else is
// `integration`: the fake GitHub, Prometheus, Chromium, Redis, git, the CLI and the App as
// processes, end to end. Every test file is in exactly one project: what is not unit is integration.
const UNIT_FOLDERS =
  /^(?:src\/(?:util|domain|detect|workloads|analysis|report|telemetry|review)|test\/(?:analysis|detect|report|workloads|schemas))\//;
/** Tests inside the unit folders that draw the comment in Chromium. */
const NEEDS_PROGRAMS = new Set([
  'test/report/comment-render.test.ts',
  'test/report/first-screen-render.test.ts',
  'test/report/mermaid-parse.test.ts',
  'test/report/weekly-render.test.ts',
]);
const isUnit = (file: string) => UNIT_FOLDERS.test(file) && !NEEDS_PROGRAMS.has(file);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Check runs created in progress at once, as a slow review has them: tests on a loaded
    // machine then take one path. Tests of the one-write creation set their own delay.
    // Jobs tried again after GitHub's 5xx wait 50 ms, not 2 s, so a test of retries takes a moment.
    // Writes of one installation are not spaced a second apart unless a test sets the spacing.
    env: { GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS: '0', GPU_JUSTIFY_RETRY_BASE_MS: '50', GPU_JUSTIFY_WRITE_SPACING_MS: '0' },
    projects: [
      { extends: true, test: { name: 'unit', include: TESTS.filter(isUnit) } },
      { extends: true, test: { name: 'integration', include: TESTS.filter((file) => !isUnit(file)) } },
    ],
  },
});
