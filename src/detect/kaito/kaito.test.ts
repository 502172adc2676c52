import { describe, expect, it } from 'vitest';
import { yaml } from '../../../test/detect/fixtures.js';
import { compareSides } from '../compare.js';
import { detectFile } from '../detect-file.js';
import type { ParseResult } from '../parser.js';

const warnings = (r: ParseResult) => r.diagnostics.filter((d) => d.severity === 'warning');

describe('KAITO', () => {
  it('counts a KAITO workspace and compares it', () => {
    const ws = (n: number) => yaml`
      apiVersion: kaito.sh/v1beta1
      kind: Workspace
      metadata:
        name: llm
      resource:
        count: ${n}
        instanceType: Standard_NC24ads_A100_v4
    `;
    const changes = compareSides(detectFile('ws.yaml', ws(1)), detectFile('ws.yaml', ws(3)));
    expect(changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.gpuModel])).toEqual([['aks-node-pool', 'llm', 1, 3, 'A100']]);
  });

  it('refuses a count too large to be real instead of overflowing to Infinity', () => {
    const ws = yaml`
      apiVersion: kaito.sh/v1beta1
      kind: Workspace
      metadata:
        name: llm
      resource:
        count: 1.7976931348623157e+308
        instanceType: Standard_NC24ads_A100_v4
    `;
    const r = detectFile('ws.yaml', ws);
    expect(r.decls).toEqual([]);
    expect(warnings(r)[0]?.message).toMatch(/not a real count/);
  });
});
