import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Tests of one part sit beside its code (src/detect/<format>/); tests across parts live in test/.
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Check runs created in progress at once, as a slow review has them: tests on a loaded
    // machine then take one path. Tests of the one-write creation set their own delay.
    // Jobs tried again after GitHub's 5xx wait 50 ms, not 2 s, so a test of retries takes a moment.
    // Writes of one installation are not spaced a second apart unless a test sets the spacing.
    env: { GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS: '0', GPU_JUSTIFY_RETRY_BASE_MS: '50', GPU_JUSTIFY_WRITE_SPACING_MS: '0' },
  },
});
