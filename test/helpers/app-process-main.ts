import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { AppServer, WEBHOOK_SECRET } from './app-server.js';

// Run by app-process.ts: one App replica, configured from the environment (REDIS_URL and the
// GPU_JUSTIFY_* settings), talking to the fake GitHub at GITHUB_URL. Prints its URL, then serves.
const app = createGpuJustifyApp({ stateSecret: WEBHOOK_SECRET, telemetry: () => undefined });
const server = await AppServer.start(app, process.env['GITHUB_URL'] ?? '', { privateKey: process.env['TEST_PRIVATE_KEY'] ?? '' });

// TEST_STALL_MS: a replica on a loaded machine, its thread held that long every other such period.
const stallMs = Number(process.env['TEST_STALL_MS'] ?? 0);
if (stallMs > 0)
  setInterval(() => {
    for (const end = Date.now() + stallMs; Date.now() < end;);
  }, 2 * stallMs).unref();
// TEST_LOOP_REPORT_MS: the process's own event-loop delay, printed that often as
// `loop <epoch ms> <max ms> <p99 ms>` over the period since the last (npm run bench -- app-stall).
const reportMs = Number(process.env['TEST_LOOP_REPORT_MS'] ?? 0);
if (reportMs > 0) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    process.stdout.write(`loop ${Date.now()} ${(delay.max / 1e6).toFixed(1)} ${(delay.percentile(99) / 1e6).toFixed(1)}\n`);
    delay.reset();
  }, reportMs).unref();
}
// Profiled (TEST_CPU_PROF_DIR, see app-process.ts): exit on SIGTERM, so that node writes the profiles.
if (process.env['TEST_CPU_PROF_DIR']) process.once('SIGTERM', () => process.exit(0));
process.stdout.write(`listening ${server.url}\n`);
