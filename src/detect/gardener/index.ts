/** Gardener Shoots' worker pools. */
export { gardenerShootParser } from './gardener-shoot.js';
