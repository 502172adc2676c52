// overrides/'s face: the commands, who may override, the override's record and the signed state our
// comment carries. The rest of github/ imports overrides/ through this file.
export { commandNoLongerStands, type GrantedCommand } from './command-comment.js';
export { parseCommand } from './command-parser.js';
export { renderExplain, renderHelp, REPLY_MARKER } from './explain.js';
export { applyLapseToCheck, applyLapseToComment, type Lapse } from './grant-lapse.js';
export { type OverrideGrant, overrideInForce } from './override-decision.js';
export { decideOverride, type OverrideDecision, type OverrideRequest } from './override-permission.js';
export {
  applyOverrideToCheck,
  applyOverrideToComment,
  demandApprovable,
  notCovered,
  overridable,
  type OverrideRecord,
  parseOverrideMarkers,
  readOverride,
  type StateTrust,
} from './override.js';
export { reviewedState, type ReviewedState } from './reviewed-state.js';
export { readShown, shownMarker } from './shown-request.js';
export { stateKey, type StateKey, stateSecretFromEnv } from './state-signature.js';
