import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The App's webhook server (AppServer) in a process of its own, for tests that kill a replica
 * with SIGKILL mid-review: it cannot finish or release anything, as a crashed pod cannot.
 * Started with tsx from the sources, configured through the environment like the App itself.
 */
export interface AppProcess {
  url: string;
  kill(): Promise<void>;
  output(): string;
}

export async function startAppProcess(githubUrl: string, privateKey: string, env: Record<string, string>): Promise<AppProcess> {
  const entry = fileURLToPath(new URL('./app-process-main.ts', import.meta.url));
  // TEST_CPU_PROF_DIR: the process (and each of its worker threads) writes a CPU profile there when
  // it is stopped, to find what holds its event loop (npm run bench -- app-stall).
  const profileDir = env['TEST_CPU_PROF_DIR'];
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', entry], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', GITHUB_URL: githubUrl, TEST_PRIVATE_KEY: privateKey, ...env },
  });
  let out = '';
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  // Lines it reports after it listens (the loop delay it measures) are part of its output too.
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the App process did not start within 120 s: ${out}`)), 120_000);
    let buffered = '';
    child.stdout?.on('data', (d: Buffer) => {
      buffered += d.toString();
      const match = /^listening (\S+)$/m.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => reject(new Error(`the App process exited with ${String(code)}: ${out}`)));
  });
  return {
    url,
    async kill() {
      // A profiled process is asked to exit, so that it writes its profile; others die as a crashed pod.
      if (child.exitCode === null && child.signalCode === null) child.kill(profileDir ? 'SIGTERM' : 'SIGKILL');
      await exited;
    },
    output: () => out,
  };
}
