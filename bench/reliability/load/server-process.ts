import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * The App as operators run it: `node dist/github/app/server.js` (Probot's `run`) in its own process, configured
 * from the environment only, on loopback.
 */

export interface ServerSecrets {
  privateKey: string;
  webhookSecret: string;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** Every line the process wrote so far, stdout and stderr (read from its log file). */
  readonly lines: string[];
  /** Highest resident set size so far (VmHWM), bytes; null off Linux. */
  peakRss(): number | null;
  /** Resident set size sampled every 250 ms, bytes. */
  rssSamples: number[];
  exited(): { code: number | null; signal: string | null } | null;
  stop(): Promise<void>;
  /** SIGKILL: the process ends at once, finishing and releasing nothing, as a crashed pod. */
  kill(): Promise<void>;
}

export function newSecrets(): ServerSecrets {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKey, webhookSecret: `whsec-${Math.random().toString(36).slice(2)}-${Date.now()}` };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export async function startServerProcess(options: {
  githubHost: string;
  secrets: ServerSecrets;
  env?: Record<string, string>;
  /** Milliseconds between GitHub writes, notifying ones too; undefined keeps octokit's 1,000 / 3,000 ms. */
  writeSpacingMs?: number;
  /**
   * In a session of its own (setsid), as a replica in its own container runs: under Linux's
   * autogroup scheduling each session is one group sharing the CPUs fairly with the others, so the
   * App no longer shares the bench's group (its sender and fake GitHub) for CPU time.
   */
  ownSession?: boolean;
}): Promise<ServerProcess> {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const port = await freePort();
  const preload = fileURLToPath(new URL('./server-preload.mjs', import.meta.url));
  // BENCH_CPU_PROF_DIR: each App process writes a CPU profile there when it stops (where the webhook path's time goes).
  const profile = process.env['BENCH_CPU_PROF_DIR'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_CPU_PROF_DIR']}`] : [];
  // The App's stdout and stderr go to a file, not a pipe the bench reads: pino writes each line
  // synchronously, so a pipe left full by a busy (or lowered) bench would hold the App's thread,
  // and the bench would time its own reading as the App's answers. The file is read when asked.
  const logDir = mkdtempSync(join(tmpdir(), 'gpu-justify-app-'));
  process.once('exit', () => rmSync(logDir, { recursive: true, force: true }));
  const logFile = join(logDir, 'app.log');
  const logFd = openSync(logFile, 'a');
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', preload, 'dist/github/app/server.js'], {
    cwd: root,
    stdio: ['ignore', logFd, logFd],
    detached: options.ownSession === true,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      APP_ID: '12345',
      PRIVATE_KEY: options.secrets.privateKey,
      WEBHOOK_SECRET: options.secrets.webhookSecret,
      GHE_HOST: options.githubHost,
      GHE_PROTOCOL: 'http',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      ...(options.writeSpacingMs === undefined
        ? {}
        : { BENCH_WRITE_SPACING_MS: String(options.writeSpacingMs), GPU_JUSTIFY_WRITE_SPACING_MS: String(options.writeSpacingMs) }),
      ...options.env,
    },
  });
  closeSync(logFd);
  const readLines = (): string[] => {
    try {
      const parts = readFileSync(logFile, 'utf8').split('\n');
      if (parts.at(-1) === '') parts.pop();
      return parts;
    } catch {
      return [];
    }
  };
  let exit: { code: number | null; signal: string | null } | null = null;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    }),
  );
  const pid = child.pid ?? -1;
  const rssSamples: number[] = [];
  const sampler = setInterval(() => {
    const rss = procStatus(pid, 'VmRSS');
    if (rss !== null) rssSamples.push(rss);
  }, 250);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    clearInterval(sampler);
    if (exit === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exitedPromise;
      clearTimeout(timer);
    }
  };
  // Generous: on a machine shared with other work a replica has taken over 20 s to listen.
  const deadline = Date.now() + 60_000;
  for (;;) {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the child's exit handler sets exit while this loop waits.
    if (exit !== null) throw new Error(`the App exited at start-up: ${readLines().slice(-20).join('\n')}`);
    try {
      const res = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1_000) });
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the App did not listen within 60 s: ${readLines().slice(-20).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid,
    get lines() {
      return readLines();
    },
    rssSamples,
    peakRss: () => procStatus(pid, 'VmHWM') ?? (rssSamples.length > 0 ? Math.max(...rssSamples) : null),
    exited: () => exit,
    stop,
    async kill() {
      clearInterval(sampler);
      if (exit === null) child.kill('SIGKILL');
      await exitedPromise;
    },
  };
}
