import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { AppServer, WEBHOOK_SECRET } from './app-server.js';

// Run by app-process.ts: one App replica, configured from the environment (REDIS_URL and the
// GPU_JUSTIFY_* settings), talking to the fake GitHub at GITHUB_URL. Prints its URL, then serves.
const app = createGpuJustifyApp({ stateSecret: WEBHOOK_SECRET, telemetry: () => undefined });
const server = await AppServer.start(app, process.env['GITHUB_URL'] ?? '', { privateKey: process.env['TEST_PRIVATE_KEY'] ?? '' });
process.stdout.write(`listening ${server.url}\n`);
