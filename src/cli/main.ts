import { UsageError } from './args.js';
import { demoCommand } from './commands/demo.js';
import { detectCommand } from './commands/detect.js';
import { reviewCommand } from './commands/review.js';
import { snapshotCommand } from './commands/snapshot.js';
import { staggerCommand } from './commands/stagger.js';
import { processOutput, type Output } from './output.js';

const COMMANDS: Record<string, (argv: string[], out: Output) => Promise<number>> = {
  demo: demoCommand,
  detect: detectCommand,
  review: reviewCommand,
  snapshot: snapshotCommand,
  stagger: staggerCommand,
};

export const USAGE = `Usage:
  gpu-justify demo
  gpu-justify detect  --base <dir|ref> --head <dir|ref> [--repo <git dir>] [--json]
  gpu-justify review  --base <dir|ref> --head <dir|ref> [--repo <git dir>]
                      [--catalog <file>] [--config <file>]
                      [--snapshot <file> | --prometheus <url> [--opencost <url>]]
                      [--at <ISO-8601 time>] [--window <duration>]
                      [--format markdown|json] [--fail-on not-justified|partially-justified]
  gpu-justify stagger --catalog <file> [--queue <name> | --pool <name>] [--capacity <gpus>] [--json]
  gpu-justify snapshot --catalog <file> --prometheus <url> [--opencost <url>]
                      [--at <time>] [--window <duration>] [--base <dir|ref> --head <dir|ref> [--repo <git dir>]]
                      --out <file>`;

/** Runs one command; returns the exit code (0 ran, 1 --fail-on matched, 2 bad usage or input). */
export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    out.stdout(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    out.stderr(`gpu-justify: unknown command ${name}\n${USAGE}`);
    return 2;
  }
  try {
    return await command(rest, out);
  } catch (err) {
    if (err instanceof UsageError || isInputError(err)) {
      out.stderr(`gpu-justify ${name}: ${(err as Error).message}`);
      return 2;
    }
    throw err;
  }
}

/** Errors that are the user's input, not a bug: bad files, bad telemetry settings. */
function isInputError(err: unknown): boolean {
  const kind = err instanceof Error ? (err as { kind?: unknown }).kind : undefined;
  return kind === 'bad-input' || kind === 'telemetry-config';
}
