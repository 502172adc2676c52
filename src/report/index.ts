// report/'s API: every sentence the review says, as the comment, the check, the JSON and the CLI's
// lines, and the words for times and numbers they share (clock.ts, numbers.ts). Other stages
// import report/ through this file.
export { capAnnotations } from './annotation-cap.js';
export { boundText, evidenceRef } from './bound-proof.js';
export { type CheckAnnotation, type CheckOutput, noteCommentUnposted, renderCheck, renderFailedCheck } from './check.js';
export { weekdayOf } from './clock.js';
export { COMMENT_MARKER, renderComment } from './comment.js';
export { coverageJson } from './coverage.js';
export { type Draft, draftCatalog, type DraftTelemetry } from './draft-catalog.js';
export { code, MAX_SENTENCE, md, prose } from './escape.js';
export { mayGrowCapacity } from './fail-closed.js';
export { filledFieldNote } from './filled-fields.js';
export { findingText } from './findings.js';
export { outageWords } from './first-screen.js';
export { headline } from './headline.js';
export { changeJson, reviewJson } from './json.js';
export { type GroupReviewReason, noteGroupReview, renderCarriedCheck, renderUnnamedGroup } from './merge-group.js';
export { missingWords } from './missing-words.js';
export { notFollowedEvidence } from './not-followed.js';
export { num } from './numbers.js';
export { reviewReason } from './reasons.js';
export { chronological, scheduleTable } from './schedule.js';
export { sharingSuffix } from './sharing.js';
export { modelSuffix } from './model-change.js';
export { expandProblemWords, staggerProblemWords } from './stagger-problems.js';
export { diagnosticsList, diagnosticsTitle } from './tables.js';
