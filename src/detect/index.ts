// detect/'s API: what a pull request's files change in GPU capacity (detectChanges), the parsers
// it runs and the reads a reviewer must fetch for them. Other stages import detect/ through this
// file; workloads/ shares the Kubernetes reading kit under kit/.
export { withCost } from './cost.js';
export { detectChanges, type DetectedChanges } from './detect-changes.js';
export { anyParserAccepts, detectionReads, mayBeApplied } from './detect-file.js';
export { PARSERS } from './registry.js';
