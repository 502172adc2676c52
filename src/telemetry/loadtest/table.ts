import type { LoadTestRow } from '../../domain/index.js';

export type { LoadTestImport } from '../../domain/index.js';

export const byRate = (a: LoadTestRow, b: LoadTestRow) => a.rate - b.rate;
