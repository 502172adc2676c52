import { describe, expect, it } from 'vitest';
import { kaitoParser } from './kaito.js';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';

/** As kaito-project/kaito's examples declare disaggregated serving (prefill and decode roles). */
const multiRole = (decode: number, decodeType = 'Standard_NC24ads_A100_v4') => `apiVersion: kaito.sh/v1alpha1
kind: MultiRoleInference
metadata:
  name: phi-4
spec:
  model:
    name: phi-4-mini-instruct
  roles:
    - type: prefill
      replicas: 1
      instanceType: Standard_NC24ads_A100_v4
    - type: decode
      replicas: ${decode}
      instanceType: ${decodeType}
`;

describe('KAITO MultiRoleInference', () => {
  it('is one pool of all its roles, a part per role, each replicas × its instance type', () => {
    const r = kaitoParser.parse('phi4.yaml', multiRole(3));
    expect(r.decls.map((d) => [d.kind, d.name, d.gpuModel, d.gpus, d.gpuStep, d.parts.map((p) => [p.label, p.gpus, p.line])])).toEqual([
      [
        'aks-node-pool',
        'phi-4',
        'A100',
        4,
        1,
        [
          ['role prefill: 1 × Standard_NC24ads_A100_v4', 1, 10],
          ['role decode: 3 × Standard_NC24ads_A100_v4', 3, 13],
        ],
      ],
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a raised role is a change of the pool; roles on different sizes leave no node step', async () => {
    expect(changeRows(await detectPr({ 'phi4.yaml': multiRole(1) }, { 'phi4.yaml': multiRole(3) })).map((r) => r.slice(1, 5))).toEqual([
      ['phi-4', 2, 4, 'A100'],
    ]);
    const mixed = kaitoParser.parse('phi4.yaml', multiRole(2, 'Standard_NC96ads_A100_v4'));
    expect(mixed.decls.map((d) => [d.gpus, d.gpuStep])).toEqual([[9, undefined]]);
  });
});
