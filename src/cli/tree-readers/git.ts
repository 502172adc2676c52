import { execFile, spawn } from 'node:child_process';
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
  const argv = gitArgv(repo, args);
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      argv,
      {
        encoding: 'buffer',
        maxBuffer: MAX_BUFFER,
        env: gitEnv(),
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

function gitArgv(repo: string, args: readonly string[]): string[] {
  return ['-C', repo, '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', ...args];
}

function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' };
}

/**
 * The blobs `oids` name, read by one `git cat-file --batch`: a tree of thousands of symbolic links
 * costs one process, not one per link (each a tenth of a second on a loaded machine). Past
 * MAX_BUFFER bytes in all, or on any failure, an input error saying what was read.
 */
export function gitBlobs(repo: string, oids: readonly string[], what: string): Promise<Map<string, Buffer>> {
  if (oids.length === 0) return Promise.resolve(new Map<string, Buffer>());
  return new Promise((resolve, reject) => {
    const child = spawn('git', gitArgv(repo, ['cat-file', '--batch']), { env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    const fail = (why: string, cause?: unknown) => {
      child.kill();
      reject(new InputError(`${what}: ${why}`, cause === undefined ? undefined : { cause }));
    };
    child.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' ? reject(new InputError('git is not installed or not on PATH', { cause: err })) : fail(err.message, err),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_BUFFER) return fail(`more than ${MAX_BUFFER} bytes`);
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString('utf8')}`.slice(-2000)));
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      if (code !== 0) return fail(stderr.trim() || `git exited with ${code ?? 'a signal'}`);
      const out = parseBatch(Buffer.concat(chunks));
      if (out === null) return fail('git cat-file --batch answered out of shape');
      resolve(out);
    });
    child.stdin.end(`${oids.join('\n')}\n`);
  });
}

/** `<oid> <type> <size>\n<content>\n` per object asked; `<oid> missing\n` for one not there. */
function parseBatch(out: Buffer): Map<string, Buffer> | null {
  const blobs = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(10, at);
    if (eol < 0) return null;
    const [oid, type, size] = out.subarray(at, eol).toString('utf8').split(' ');
    at = eol + 1;
    if (type === 'missing' || oid === undefined) continue;
    const length = Number(size);
    if (!Number.isSafeInteger(length) || length < 0 || at + length > out.length) return null;
    if (type === 'blob') blobs.set(oid, out.subarray(at, at + length));
    at += length + 1;
  }
  return blobs;
}
