/** KAI Scheduler (Run:ai) Queues. */
export { kaiQueueParser } from './kai-queue.js';
