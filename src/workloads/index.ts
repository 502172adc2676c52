// workloads/'s API: the catalog and policy the repository holds, the workloads its manifests
// declare, and the catalog's durations written both ways. Other stages import
// workloads/ through this file.
export { parseCatalog, type RejectedWorkload } from './catalog.js';
export { draftEntries } from './draft-entries.js';
export { formatDuration, parseDuration } from './duration.js';
export { declaredInTree } from './manifests/read-tree.js';
export { declaredWorkloads } from './manifests/read-workloads.js';
export { namedLoadTests, withOwnInputs } from './own-inputs.js';
export { parsePolicy, policyFromObject } from './policy.js';
export { withTrustedQueries } from './trusted-queries.js';
export { loadYaml } from './yaml-source.js';
