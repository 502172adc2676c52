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
process.stdout.write(`listening ${server.url}\n`);
