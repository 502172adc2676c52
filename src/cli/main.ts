import { GpuJustifyError } from '../domain/errors.js';
import { redactSecrets } from '../util/redact.js';
import { visible } from '../domain/visible.js';
import { nearest } from '../util/nearest.js';
import { UsageError } from './args.js';
import { ACTION_HELP, actionCommand } from './commands/action.js';
import { DEMO_HELP, demoCommand } from './commands/demo.js';
import { DETECT_HELP, detectCommand } from './commands/detect.js';
import { INIT_HELP, initCommand } from './commands/init.js';
import { REVIEW_HELP, reviewCommand } from './commands/review.js';
import { SNAPSHOT_HELP, snapshotCommand } from './commands/snapshot.js';
import { STAGGER_HELP, staggerCommand } from './commands/stagger.js';
import { processOutput, type Output } from './output.js';
import { packageVersion } from './version.js';

export interface Command {
  run(argv: string[], out: Output): Promise<number>;
  /** Printed by `gpu-justify <command> --help`; starts with the command's usage line(s). */
  help: string;
}

export const COMMANDS: Record<string, Command> = {
  action: { run: actionCommand, help: ACTION_HELP },
  demo: { run: demoCommand, help: DEMO_HELP },
  detect: { run: detectCommand, help: DETECT_HELP },
  init: { run: initCommand, help: INIT_HELP },
  review: { run: reviewCommand, help: REVIEW_HELP },
  snapshot: { run: snapshotCommand, help: SNAPSHOT_HELP },
  stagger: { run: staggerCommand, help: STAGGER_HELP },
};

const HELP_FLAGS = new Set(['--help', '-h']);

export const USAGE = `gpu-justify reviews pull requests that grow GPU capacity against what the cluster really does.

Usage:
  gpu-justify action
  gpu-justify demo
  gpu-justify detect  --base <dir|ref> --head <dir|ref> [--repo <git dir>] [--json]
  gpu-justify init [--dir <repo dir>] [--out <file>] [--force]
                   [--prometheus <url>] [--at <ISO-8601 time>] [--window <duration>]
  gpu-justify review  --base <dir|ref> --head <dir|ref> [--repo <git dir>]
  gpu-justify review  --pr <owner/repo#number>
                      [--catalog <file>] [--config <file>]
                      [--snapshot <file> | --prometheus <url> [--opencost <url>]]
                      [--at <ISO-8601 time>] [--window <duration>]
                      [--format markdown|json] [--fail-on not-justified|partially-justified]
                      [--allow-insufficient-evidence]
  gpu-justify stagger --catalog <file> [--queue <name> | --pool <name>] [--capacity <gpus>] [--json]
  gpu-justify snapshot [--catalog <file> | --dir <dir>] --prometheus <url> [--opencost <url>]
                      [--at <time>] [--window <duration>] [--step <seconds>] [--base <dir|ref> --head <dir|ref> [--repo <git dir>]]
                      --out <file>

  gpu-justify --version

Run gpu-justify <command> --help for what a command does and its options.`;

/** Runs one command; returns the exit code (0 ran, 1 --fail-on matched, 2 bad usage or input). */
export async function main(argv: string[], output: Output = processOutput): Promise<number> {
  // Whatever a command prints (a telemetry error echoing a URL, say), no known secret is in it.
  // Messages name the PR's files: what they hold invisibly (a bidi control) is written out.
  const out: Output = { stdout: (t) => output.stdout(redactSecrets(t)), stderr: (t) => output.stderr(visible(redactSecrets(t))) };
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    out.stdout(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    out.stdout(packageVersion());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    const near = nearest(name, Object.keys(COMMANDS));
    out.stderr(`gpu-justify: unknown command ${name}${near === null ? '' : ` (did you mean ${near}?)`}\n${USAGE}`);
    return 2;
  }
  // Asking for help wins over everything else on the line, even flags that would be errors.
  if (rest.some((arg) => HELP_FLAGS.has(arg))) {
    out.stdout(command.help);
    return 0;
  }
  try {
    return await command.run(rest, out);
  } catch (err) {
    if (err instanceof UsageError || isInputError(err)) {
      out.stderr(`gpu-justify ${name}: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

/** Errors that are the user's input, not a bug: bad files, bad telemetry settings. */
function isInputError(err: unknown): err is GpuJustifyError {
  return err instanceof GpuJustifyError && (err.kind === 'bad-input' || err.kind === 'telemetry-config');
}
