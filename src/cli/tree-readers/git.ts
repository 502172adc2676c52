import { execFile } from 'node:child_process';
import { InputError } from '../../domain/errors.js';
import { fail, ok, type Result } from '../../domain/result.js';

/** What git printed: its output when it exited 0, else its own words on stderr. */
export type GitResult = Result<Buffer, string>;

/** Trees of real infra repos are large; a cat-file of a big file must not be cut short. */
const MAX_BUFFER = 256 * 1024 * 1024;

/**
 * Runs git without a shell, so refs and paths are never interpreted by one. Settings that could
 * run programs from the repository's own config are switched off: the tree may be untrusted.
 */
export function git(repo: string, args: readonly string[]): Promise<GitResult> {
  const argv = ['-C', repo, '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', ...args];
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      argv,
      {
        encoding: 'buffer',
        maxBuffer: MAX_BUFFER,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' },
      },
      (error, stdout, stderr) => {
        const errno = (error as NodeJS.ErrnoException | null)?.code;
        if (errno === 'ENOENT') {
          reject(new InputError('git is not installed or not on PATH', { cause: error }));
          return;
        }
        if (error && typeof (error as { code?: unknown }).code !== 'number') {
          reject(new InputError(`git ${args[0] ?? ''} failed: ${error.message}`, { cause: error }));
          return;
        }
        resolve(error === null ? ok(stdout) : fail(stderr.toString('utf8').trim()));
      },
    );
  });
}

/** Like `git`, but a failure is an input error carrying git's own words. */
export async function gitOrThrow(repo: string, args: readonly string[], what: string): Promise<Buffer> {
  const result = await git(repo, args);
  if (!result.ok) throw new InputError(`${what}: ${result.error || 'git failed'}`);
  return result.value;
}
