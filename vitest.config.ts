import { defineConfig } from 'vitest/config';
import { isUnit, testFiles } from './test/suite/projects.js';

const TESTS = testFiles();

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
      // One module graph per worker for the unit files: they hold no global state between files
      // (no mocks of modules, no stubbed globals or environment), and evaluating the detect
      // readers, the HCL parser's WebAssembly and the Bicep grammar once per worker instead of
      // once per file saves about a third of the project's CPU time. test/suite/shared-state.test.ts
      // fails on a unit file or helper that would leak state into the files after it; the setup
      // file restarts what a shared helper counts per file.
      {
        extends: true,
        test: { name: 'unit', include: TESTS.filter(isUnit), isolate: false, setupFiles: ['test/suite/per-file-state.ts'] },
      },
      { extends: true, test: { name: 'integration', include: TESTS.filter((file) => !isUnit(file)) } },
    ],
  },
});
