// report/'s API: every sentence the review says, as the comment, the check, the JSON and the CLI's
// lines, and the words for times and numbers they share (clock.ts, numbers.ts). Other stages
// import report/ through this file.
export { boundText } from './bound-proof.js';
export { formatClock, weekdayOf } from './clock.js';
export { renderComment } from './comment.js';
export { coverageJson } from './coverage.js';
export { draftCatalog, type Draft, type DraftTelemetry } from './draft-catalog.js';
export { mayGrowCapacity } from './fail-closed.js';
export { filledFieldNote } from './filled-fields.js';
export { outageWords } from './first-screen.js';
export { changeJson, reviewJson } from './json.js';
export { missingWords } from './missing-words.js';
export { chronological } from './schedule.js';
export { sharingSuffix } from './sharing.js';
export { expandProblemWords, staggerProblemWords } from './stagger-problems.js';
