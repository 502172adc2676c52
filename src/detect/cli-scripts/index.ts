/** Node pools made or sized by cloud CLIs in scripts, Makefiles and CI. */
export { cliScriptParser } from './cli-scripts.js';
