// analysis/'s API: the judgements review/ runs and the stagger planner the CLI runs (codes and
// numbers only), and what report/ needs to word them. Callers import analysis/ through this file
// (.dependency-cruiser.cjs), so what other stages lean on stays in one list.
export { type CatalogSplit, judgeCatalog, type JudgedCatalog, measuredEntries, splitCatalog } from './catalog-demand.js';
export { HELD_MOST } from './idle-pods.js';
export { filledWorkload, inferredWorkloads } from './inferred-workloads.js';
export { coverageEvidence, uniqueMissing } from './missing.js';
export { observedForDraft } from './observed-workloads.js';
export { type ChangeContext, reviewChanges } from './review-change.js';
export { gpusAskedBy } from './model-swap.js';
export { judgePr } from './review-pr.js';
export { cycleWord, DAY, WEEK } from './stagger/circle.js';
export { type ExpandProblem, jobsFromWorkloads, planStagger, StaggerError, usageProfile } from './stagger/index.js';
