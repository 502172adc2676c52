export { checkSchedule, usageAt, usageProfile, type UsageProfile, type UsageStep } from './check.js';
export { StaggerError, type StaggerErrorKind } from './errors.js';
export { jobsFromWorkloads, type ExpandProblem } from './expand.js';
export { lowerBound, type LowerBound } from './lower-bound.js';
export { DEFAULT_NODE_BUDGET, planStagger, type PlanOptions } from './plan.js';
