/** Where commands write; tests capture it instead of the process streams. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processOutput: Output = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
};
