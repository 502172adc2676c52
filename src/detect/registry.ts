import { kueueParser } from './kueue.js';
import type { CapacityParser } from './parser.js';

/** Every capacity format the detector knows; a new format is one more entry. */
export const PARSERS: readonly CapacityParser[] = [kueueParser];
