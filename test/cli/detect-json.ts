import { expect } from 'vitest';
import { runCli } from './run-cli.js';

/** What `detect --json` prints, as far as these tests read it. */
export interface Detected {
  changes: { file: string; gpusBefore: number; gpusAfter: number }[];
  diagnostics: { file: string; severity: string; message: string }[];
  coverage: { file: string; state: string }[];
}

/** `detect --json` with these arguments, which must run (exit 0, nothing on stderr). */
export async function detectJson(...args: string[]): Promise<{ json: Detected }> {
  const { code, stdout, stderr } = await runCli('detect', ...args, '--json');
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return { json: JSON.parse(stdout) as Detected };
}

/** One error on `file` whose message matches `why`, the file not followed, and no GPUs read as gone. */
export function expectUnreadable(json: Detected, file: string, why: RegExp): void {
  expect(json.diagnostics.filter((d) => d.file === file && d.severity === 'error').map((d) => d.message)).toEqual([
    expect.stringMatching(why),
  ]);
  expect(json.coverage.find((c) => c.file === file)?.state).toBe('not-followed');
  expect(json.changes.filter((c) => c.gpusAfter < c.gpusBefore)).toEqual([]);
}
