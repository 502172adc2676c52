/**
 * What every error this project throws on purpose shares: a `kind` that says what failed (bad
 * input, telemetry unavailable, GitHub refused, …), read with `instanceof` by the CLI's exit code
 * and the check's failure line. An error without one is a bug, and is labelled as unexpected.
 */
export abstract class GpuJustifyError extends Error {
  abstract readonly kind: string;
}

/**
 * Input the user gave cannot be used: a missing directory, an unknown git ref, a path leaving the
 * repository. The CLI reports it on stderr and exits 2.
 */
export class InputError extends GpuJustifyError {
  override readonly kind = 'bad-input';
  readonly file?: string;
  readonly line?: number;

  constructor(message: string, options: { file?: string; line?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'InputError';
    if (options.file !== undefined) this.file = options.file;
    if (options.line !== undefined) this.line = options.line;
  }
}
