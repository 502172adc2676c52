import { readFile } from 'node:fs/promises';
import { UsageError } from './args.js';

/** Reads a file named on the command line; a failure is bad input (exit 2) naming the flag. */
export async function readInputFile(flag: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${flag} ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(err))}`);
  }
}
