import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pullRequestPayload } from '../../test/helpers/payloads.js';
import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { fmt, HeapSampler, memoryReport, quantile, table } from '../lib/measure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = 9;

/**
 * Milliseconds from starting `args` with node to the first request GitHub receives. The fake
 * answers 503 to end the run there: what is measured is the start, not the review.
 */
async function firstCall(args: string[], eventPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let started = 0n;
    const server = createServer((_req, res) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"bench"}');
      child.kill('SIGKILL');
      server.close();
      resolve(ms);
    });
    let child: ReturnType<typeof spawn>;
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      started = process.hrtime.bigint();
      child = spawn(process.execPath, args, {
        stdio: 'ignore',
        env: {
          PATH: process.env.PATH,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_API_URL: `http://127.0.0.1:${port}`,
          GITHUB_TOKEN: 'ghs_bench',
          'INPUT_GITHUB-TOKEN': 'ghs_bench',
        },
      });
      child.once('exit', (code) => {
        if (code !== null) reject(new Error(`${args.join(' ')} exited with ${code} before calling GitHub`));
      });
    });
  });
}

/** One `npm ci` of the lock file into an empty folder, from npm's cache where it can. */
function npmCiMs(dir: string): number {
  const target = path.join(dir, 'install');
  mkdirSync(target);
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(ROOT, file), path.join(target, file));
  const started = process.hrtime.bigint();
  const run = spawnSync('npm', ['ci', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: target, stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`npm ci failed (${run.status ?? run.signal})`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export const actionBench: Benchmark = {
  name: 'action',
  about: 'time from the GitHub Action starting to its first GitHub call: the committed bundle against the CLI in a checkout',
  async run(): Promise<BenchResult> {
    const sampler = new HeapSampler();
    const dir = mkdtempSync(path.join(tmpdir(), 'gpu-justify-action-bench-'));
    try {
      const eventPath = path.join(dir, 'event.json');
      writeFileSync(
        eventPath,
        JSON.stringify(
          pullRequestPayload({ action: 'opened', installationId: 1, number: 1, baseSha: 'b'.repeat(40), headSha: 'c'.repeat(40) }),
        ),
      );
      const variants = [
        { name: 'bundle (`action/dist/index.mjs`)', args: [path.join(ROOT, 'action/dist/index.mjs')] },
        { name: 'checkout (`bin/gpu-justify.js action`, after `npm ci`)', args: [path.join(ROOT, 'bin/gpu-justify.js'), 'action'] },
      ];
      const rows: string[][] = [];
      const data: Record<string, unknown> = {};
      for (const v of variants) {
        const times: number[] = [];
        // Interleaving is not needed: each run is a fresh process; the first warms the disk cache.
        await firstCall(v.args, eventPath);
        for (let i = 0; i < RUNS; i++) times.push(await firstCall(v.args, eventPath));
        rows.push([v.name, fmt(quantile(times, 0.5), 0), fmt(quantile(times, 0.95), 0)]);
        data[v.name] = { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
      }
      const install = npmCiMs(dir);
      data['npm ci'] = install;
      const markdown = [
        `Node start to the first GitHub request, ${RUNS} runs each. Before the bundle, the composite action also ran`,
        `\`npm ci\` of every dependency on each job: ${fmt(install, 0)} ms here with npm's cache already warm (one run,`,
        'scripts off), more on a fresh runner.',
        '',
        table(['how the Action starts', 'p50 ms', 'p95 ms'], rows),
      ].join('\n');
      return { markdown, memory: memoryReport(sampler), data };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
