import { spawn, spawnSync } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { eventually } from '../eventually.js';

const INSTALL_HINT =
  'the replica tests need a real Redis: install it with `sudo apt-get install -y --no-install-recommends redis-server` (Debian/Ubuntu)';

export interface RunningRedis {
  url: string;
  /** Stops the server (kill -9 when `crash`), as a Redis that goes away mid-review would. */
  stop(options?: { crash?: boolean }): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** PING over a raw socket: true once the server answers PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

export interface RedisOptions {
  /**
   * In a session of its own (setsid), as a Redis on its own host or container runs: under Linux's
   * autogroup scheduling a session is one group sharing the CPUs fairly with the others, so the
   * server no longer shares one group's time with whoever started it (a load run's sender).
   */
  ownSession?: boolean;
}

/**
 * A throwaway redis-server on a free loopback port: no persistence, no config file. Fails loudly
 * (never skips) when the binary is missing: CI installs it.
 */
export async function startRedis(options: RedisOptions = {}): Promise<RunningRedis> {
  if (spawnSync('sh', ['-c', 'command -v redis-server'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(`redis-server not found on PATH: ${INSTALL_HINT}`);
  }
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownSession === true,
  });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}: ${log}`);
        return ping(port);
      },
      { what: `redis-server on port ${port} to answer PING`, timeoutMs: 10_000, everyMs: 50, state: () => log },
    );
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop(options = {}) {
      if (child.exitCode === null && child.signalCode === null) child.kill(options.crash ? 'SIGKILL' : 'SIGTERM');
      await exited;
    },
  };
}
