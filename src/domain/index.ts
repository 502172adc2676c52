export * from './capacity.js';
export * from './diagnostic.js';
export * from './files.js';
export * from './policy.js';
export * from './review.js';
export * from './schedule.js';
export * from './verdict.js';
export * from './workload.js';
