import { expect } from 'vitest';
import type { Diagnostic } from '../../src/domain/diagnostic.js';

/** The catalog file's name in these tests. */
export const FILE = 'gpu-workloads.yaml';

/** A catalog with one batch workload, in which `extra` lines are added to the item. */
export function batch(extra = '', name = 'nightly-eval'): string {
  return [
    `  - name: ${name}`,
    '    type: batch',
    '    gpusPerJob: 2',
    '    runtime: 2h',
    '    window:',
    '      earliestStart: "00:00"',
    '      deadline: "06:00"',
    ...(extra ? [extra] : []),
  ].join('\n');
}

export function only(diagnostics: Diagnostic[]): Diagnostic {
  expect(diagnostics).toHaveLength(1);
  return diagnostics[0]!;
}
