import { redactSecrets } from '../domain/redact.js';

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
