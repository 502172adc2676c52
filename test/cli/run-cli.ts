import { main } from '../../src/cli/main.js';
import type { Output } from '../../src/cli/output.js';

/** Runs the CLI in-process and captures what it printed and its exit code. */
export async function runCli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const output: Output = { stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const code = await main(argv, output);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}
