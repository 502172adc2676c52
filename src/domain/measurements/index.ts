export * from './cost.js';
export * from './hints.js';
export * from './load-test.js';
export * from './measure.js';
export * from './measurement.js';
export * from './mig-profile.js';
export * from './review-measurements.js';
export * from './series-labels.js';
