import { run } from 'probot';
import { closeApps, gpuJustifyApp } from './app.js';
import { ProductionOctokit } from './production-octokit.js';

/**
 * The App's server as operators run it (`npm start`, the container's command): Probot's `run`,
 * configured from the environment like `probot run`, with the Octokit that keeps rate-limit waits
 * within the review's budget.
 */
const server = await run(gpuJustifyApp, { Octokit: ProductionOctokit });

/**
 * Stopped (a rollout, a scale-down): no more webhooks, no new job, and the jobs running here
 * finish before the process ends. Jobs queued in Redis wait for the other replicas; a job cut
 * short by a SIGKILL is taken up again by one of them (work/queue.ts).
 */
let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void (async () => {
    await server.stop().catch(() => undefined);
    await closeApps().catch(() => undefined);
    process.exit(0);
  })();
};
process.once('SIGTERM', stop);
