/** Helm: capacity objects in a chart's values, read with the manifest parsers. */
export { helmValuesParser } from './helm-values.js';
