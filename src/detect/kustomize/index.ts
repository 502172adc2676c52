/** Kustomize overlays: bases patched into capacity objects. */
export { kustomizeParser } from './kustomize-parser.js';
