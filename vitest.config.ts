import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Tests of one part sit beside its code (src/detect/<format>/); tests across parts live in test/.
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
