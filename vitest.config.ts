import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Tests of one part sit beside its code (src/detect/<format>/); tests across parts live in test/.
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Check runs created in progress at once, as a slow review has them: tests on a loaded
    // machine then take one path. Tests of the one-write creation set their own delay.
    env: { GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS: '0' },
  },
});
