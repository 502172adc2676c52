import { run } from 'probot';
import { gpuJustifyApp } from './app.js';
import { ProductionOctokit } from './production-octokit.js';

/**
 * The App's server as operators run it (`npm start`, the container's command): Probot's `run`,
 * configured from the environment like `probot run`, with the Octokit that keeps rate-limit waits
 * within the review's budget.
 */
await run(gpuJustifyApp, { Octokit: ProductionOctokit });
