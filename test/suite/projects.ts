import { readdirSync } from 'node:fs';

/**
 * Which test file runs in which vitest project (vitest.config.ts). Tests of one part sit beside
 * its code (src/detect/<format>/); tests across parts live in test/.
 *
 * `unit`: the stages that take data and return data (domain, detect, workloads, analysis, report)
 * and tests of pure code, run with no system program and no server. Everything else is
 * `integration`: the fake GitHub, Prometheus, Chromium, Redis, git, the CLI and the App as
 * processes, end to end. Every test file is in exactly one project: what is not unit is integration.
 */
export function testFiles(roots: readonly string[] = ['src', 'test']): string[] {
  return roots.flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => `${root}/${file.replaceAll('\\', '/')}`),
  );
}

const UNIT_FOLDERS =
  /^(?:src\/(?:util|domain|detect|workloads|analysis|report|telemetry|review)|test\/(?:analysis|detect|report|workloads|schemas|suite))\//;

/** Tests inside the unit folders that draw the comment in Chromium. */
const NEEDS_PROGRAMS = new Set([
  'test/report/comment-render.test.ts',
  'test/report/first-screen-render.test.ts',
  'test/report/mermaid-parse.test.ts',
  'test/report/weekly-render.test.ts',
]);

export const isUnit = (file: string): boolean => UNIT_FOLDERS.test(file) && !NEEDS_PROGRAMS.has(file);
