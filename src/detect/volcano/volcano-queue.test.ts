import { describe, expect, it } from 'vitest';
import { changeRows, detectPr, lineIn } from '../../../test/detect/real-fixtures.js';
import { volcanoQueueParser } from './volcano-queue.js';

/** The shape of Volcano's "Queue Resource Management" example, with GPU amounts. */
const queue = (o: { deserved?: number | string; guarantee?: number; capability?: number } = {}) => {
  const lines = [
    'apiVersion: scheduling.volcano.sh/v1beta1',
    'kind: Queue',
    'metadata:',
    '  name: training',
    'spec:',
    '  weight: 1',
    '  reclaimable: true',
  ];
  if (o.capability !== undefined) lines.push('  capability:', '    cpu: "64"', `    nvidia.com/gpu: ${o.capability}`);
  if (o.deserved !== undefined) lines.push('  deserved:', '    cpu: "32"', `    nvidia.com/gpu: ${o.deserved}`);
  if (o.guarantee !== undefined) lines.push('  guarantee:', '    resource:', '      cpu: "8"', `      nvidia.com/gpu: ${o.guarantee}`);
  return `${lines.join('\n')}\n`;
};
const FILE = 'volcano/queues/training.yaml';

describe('Volcano Queue', () => {
  it('counts deserved, with what capability lets it borrow', () => {
    const r = volcanoQueueParser.parse(FILE, queue({ deserved: 8, guarantee: 4, capability: 16 }));
    expect(r.decls.map((d) => [d.kind, d.name, d.gpus, d.borrowingLimit, d.line])).toEqual([['volcano-queue', 'training', 8, 8, 13]]);
  });

  it('without deserved counts guarantee, and without either its capability', () => {
    expect(volcanoQueueParser.parse(FILE, queue({ guarantee: 4, capability: 16 })).decls.map((d) => [d.gpus, d.borrowingLimit])).toEqual([
      [4, 12],
    ]);
    expect(volcanoQueueParser.parse(FILE, queue({ capability: 16 })).decls.map((d) => [d.gpus, d.borrowingLimit])).toEqual([
      [16, undefined],
    ]);
    expect(volcanoQueueParser.parse(FILE, queue({ deserved: 8 })).decls.map((d) => [d.gpus, d.borrowingLimit])).toEqual([[8, undefined]]);
  });

  it('sums its GPU resources, each at its own level, and ignores the rest', () => {
    const text = queue({ deserved: 8, capability: 16 }).replace(
      '    cpu: "32"',
      '    cpu: "32"\n    nvidia.com/mig-1g.10gb: 14\n    nvidia.com/gpucores: 400',
    );
    const r = volcanoQueueParser.parse(FILE, text);
    expect(r.decls.map((d) => [d.gpus, d.parts.map((p) => [p.resource, p.gpus])])).toEqual([
      [
        22,
        [
          ['nvidia.com/mig-1g.10gb', 14],
          ['nvidia.com/gpu', 8],
        ],
      ],
    ]);
  });

  it('a queue with no GPU resource is no GPU queue; one it cannot read is unknown', () => {
    const r = volcanoQueueParser.parse(FILE, queue());
    expect(r.decls).toEqual([]);
    expect(r.unresolved).toEqual([]);
    const templated = volcanoQueueParser.parse(FILE, queue({ deserved: '"{{ .Values.gpus }}"' }));
    expect(templated.unresolved).toEqual([expect.objectContaining({ kind: 'volcano-queue', name: 'training' })]);
  });

  it('a raised deserved amount is its change; a capability change beside it is not', async () => {
    for (const [from, to] of [
      [4, 8],
      [8, 0],
      [1, 31],
    ] as const) {
      const head = queue({ deserved: to, capability: 32 });
      const result = await detectPr({ [FILE]: queue({ deserved: from, capability: 16 }) }, { [FILE]: head });
      expect(changeRows(result)).toEqual([['volcano-queue', 'training', from, to, null, FILE, lineIn(head, `gpu: ${to}`)]]);
    }
    const same = await detectPr({ [FILE]: queue({ deserved: 8, capability: 16 }) }, { [FILE]: queue({ deserved: 8, capability: 24 }) });
    expect(same.changes).toEqual([]);
    expect(same.coverage).toEqual([expect.objectContaining({ file: FILE, state: 'read' })]);
  });

  it('a kustomize strategic-merge patch that raises deserved is counted as rendered', async () => {
    const base = {
      'v/base/kustomization.yaml': 'resources:\n  - training.yaml\n',
      'v/base/training.yaml': queue({ deserved: 4, capability: 16 }),
      'v/prod/kustomization.yaml': 'resources:\n  - ../base\npatches:\n  - path: more.yaml\n',
      'v/prod/more.yaml':
        'apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: training\nspec:\n  deserved:\n    nvidia.com/gpu: 6\n',
    };
    const head = { ...base, 'v/prod/more.yaml': base['v/prod/more.yaml'].replace('gpu: 6', 'gpu: 10') };
    expect(changeRows(await detectPr(base, head)).map((r) => r.slice(0, 4))).toEqual([['volcano-queue', 'training', 6, 10]]);
  });
});
