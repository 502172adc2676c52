import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The command line was wrong: exit 2 with the message. */
export class UsageError extends Error {
  readonly kind = 'usage';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses `argv` strictly: an unknown flag or a missing value is a usage error, not a guess. */
export function parseFlags<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

export function required(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`${flag} is required`);
  return value;
}
