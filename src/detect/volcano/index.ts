/** Volcano Queues. */
export { volcanoQueueParser } from './volcano-queue.js';
