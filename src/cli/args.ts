import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearest } from '../util/nearest.js';
import { GpuJustifyError } from '../domain/errors.js';

/** The command line was wrong: exit 2 with the message. */
export class UsageError extends GpuJustifyError {
  override readonly kind = 'usage';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses `argv` strictly: an unknown flag or a missing value is a usage error, not a guess. An
 * unknown flag is told the one it most likely meant, else the command's flags.
 */
export function parseFlags<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const unknown = (err as { code?: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-{1,2}[^'=]+)/.exec(message)?.[1] : undefined;
    throw new UsageError(unknown === undefined ? message : `${message}${flagHint(unknown, Object.keys(options))}`);
  }
}

function flagHint(typed: string, names: readonly string[]): string {
  const flags = names.map((n) => `--${n}`);
  const near = nearest(typed.startsWith('--') ? typed : `-${typed}`, flags);
  if (near !== null) return ` (did you mean ${near}?)`;
  return flags.length === 0 ? '; this command takes no flags' : `; the flags are ${flags.join(', ')}`;
}

export function required(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`${flag} is required`);
  return value;
}
