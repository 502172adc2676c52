/** Kueue ClusterQueue quotas, and the Kueue populator chart's values. */
export { kueuePopulatorParser } from './kueue-populator.js';
export { kueueParser } from './kueue.js';
