/** KAITO Workspaces and InferenceSets: the GPU nodes they ask for. */
export { kaitoParser } from './kaito.js';
