import { redactSecrets } from '../util/redact.js';
import { jsonWithVisibleEscapes } from '../domain/visible.js';

/** Where commands write; tests capture it instead of the process streams. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The process's streams; nothing reaches them before every known secret is scrubbed. */
export const processOutput: Output = {
  stdout: (text) => process.stdout.write(`${redactSecrets(text)}\n`),
  stderr: (text) => process.stderr.write(`${redactSecrets(text)}\n`),
};

/** A command's JSON answer: indented, invisible characters in PR strings written as `\uXXXX`. */
export function jsonOutput(value: unknown): string {
  return jsonWithVisibleEscapes(JSON.stringify(value, null, 2));
}
