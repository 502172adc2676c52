import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../eventually.js';

const INSTALL_HINT =
  'the telemetry tests need a real Prometheus: install it with ' +
  '`sudo apt-get install -y --no-install-recommends prometheus` (Debian/Ubuntu; it ships promtool), ' +
  'or put the `prometheus` and `promtool` binaries from https://prometheus.io/download/ on PATH';

export interface RunningPrometheus {
  url: string;
  stop(): Promise<void>;
}

function onPath(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0;
}

/** Fails loudly (never skips) when the binaries are missing: CI installs them. */
function requirePrometheus(): void {
  const missing = ['prometheus', 'promtool'].filter((b) => !onPath(b));
  if (missing.length > 0) throw new Error(`${missing.join(' and ')} not found on PATH: ${INSTALL_HINT}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Ready once `/-/ready` answers 200; an exit before that fails at once, with the process's output. */
async function waitReady(url: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${log()}`);
      try {
        const res = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1_000) });
        return res.ok;
      } catch {
        return false; // Not listening yet.
      }
    },
    { what: `prometheus at ${url} ready`, timeoutMs, everyMs: 100, state: log },
  );
}

/**
 * Backfills `openmetrics` into a fresh TSDB with promtool, starts Prometheus on it (no scraping,
 * loopback only) and waits until it is ready. `stop` kills the process group and removes the data.
 */
export async function startPrometheus(openmetrics: string): Promise<RunningPrometheus> {
  requirePrometheus();
  const dir = await mkdtemp(join(tmpdir(), 'gpu-justify-prom-'));
  const input = join(dir, 'series.om');
  const data = join(dir, 'data');
  const config = join(dir, 'prometheus.yml');
  await writeFile(input, openmetrics);
  await writeFile(config, 'global:\n  scrape_interval: 1h\nscrape_configs: []\n');

  const backfill = spawnSync('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', '--quiet', input, data], {
    encoding: 'utf8',
  });
  if (backfill.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`promtool backfill failed (${backfill.status}): ${backfill.stderr || backfill.stdout}`);
  }

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${data}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=3650d',
      '--log.level=warn',
    ],
    // Its own process group, so stop() can take down anything it started.
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const onExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', onExit);

  const stop = async () => {
    process.removeListener('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    await waitReady(url, child, () => output, 30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}
