import { describe, expect, it } from 'vitest';
import { changeRows, detectPr, edited, lineIn, loadReal } from '../../../test/detect/real-fixtures.js';
import { kaiQueueParser } from './kai-queue.js';

/** The shape of KAI Scheduler's quick-start queues, with a GPU quota and limit. */
const queue = (quota: number | string, limit: number | string = -1) => `apiVersion: scheduling.run.ai/v2
kind: Queue
metadata:
  name: team-llm
spec:
  parentQueue: research
  resources:
    cpu:
      quota: 32000
      limit: -1
      overQuotaWeight: 1
    gpu:
      quota: ${quota}
      limit: ${limit}
      overQuotaWeight: 2
    memory:
      quota: -1
      limit: -1
      overQuotaWeight: 1
`;
const FILE = 'platform/kai/queues.yaml';

describe('KAI Scheduler Queue', () => {
  it('counts its gpu quota, with what its limit lets it borrow', () => {
    const r = kaiQueueParser.parse(FILE, queue(16, 24));
    expect(r.decls.map((d) => [d.kind, d.name, d.gpus, d.borrowingLimit, d.line])).toEqual([['kai-queue', 'team-llm', 16, 8, 13]]);
    expect(kaiQueueParser.parse(FILE, queue(16)).decls[0]?.borrowingLimit).toBeUndefined();
  });

  it('a quota of -1 has no bound: unknown, never 0', () => {
    for (const quota of [-1, '"-1"', '-1.0']) {
      const r = kaiQueueParser.parse(FILE, queue(quota));
      expect(r.decls).toEqual([]);
      expect(r.unresolved).toEqual([
        expect.objectContaining({ kind: 'kai-queue', name: 'team-llm', line: 13, unboundedBy: 'gpu.quota -1' }),
      ]);
    }
  });

  it('a quota it cannot read is unknown, at its line', () => {
    const r = kaiQueueParser.parse(FILE, queue('"{{ .Values.gpus }}"'));
    expect(r.unresolved).toEqual([expect.objectContaining({ name: 'team-llm', line: 13 })]);
    expect(r.diagnostics[0]?.message).toContain('KAI Queue team-llm: gpu.quota is the template expression');
  });

  it('a queue with no gpu resources is no GPU queue', () => {
    const r = kaiQueueParser.parse(FILE, queue(4).replace(/ {4}gpu:\n(?: {6}.*\n)+/, ''));
    expect(r.decls).toEqual([]);
    expect(r.unresolved).toEqual([]);
  });

  it('a raised quota is its change, for any pair of counts and YAML 1.1 spellings', async () => {
    for (const [from, to, written] of [
      [0, 8, '8'],
      [16, 4, '4'],
      [2, 8, '010'],
      [2, 16, '0x10'],
    ] as const) {
      const head = queue(written);
      const result = await detectPr({ [FILE]: queue(from) }, { [FILE]: head });
      expect(changeRows(result)).toEqual([['kai-queue', 'team-llm', from, to, null, FILE, lineIn(head, `quota: ${written}`)]]);
    }
  });

  it('a change of its limit alone, or of cpu, is no change in GPUs', async () => {
    for (const head of [queue(8, 16), queue(8).replace('quota: 32000', 'quota: 64000')]) {
      const result = await detectPr({ [FILE]: queue(8) }, { [FILE]: head });
      expect(result.changes).toEqual([]);
      expect(result.coverage).toEqual([expect.objectContaining({ file: FILE, state: 'read' })]);
    }
  });

  it('a kustomize patch that raises the quota is counted as rendered', async () => {
    const base = {
      'kai/base/kustomization.yaml': 'resources:\n  - queues.yaml\n',
      'kai/base/queues.yaml': queue(4),
      'kai/prod/kustomization.yaml':
        'resources:\n  - ../base\npatches:\n  - target:\n      group: scheduling.run.ai\n      kind: Queue\n      name: team-llm\n    patch: |-\n      - op: replace\n        path: /spec/resources/gpu/quota\n        value: 8\n',
    };
    const head = { ...base, 'kai/prod/kustomization.yaml': base['kai/prod/kustomization.yaml'].replace('value: 8', 'value: 12') };
    expect(changeRows(await detectPr(base, head)).map((r) => r.slice(0, 4))).toEqual([['kai-queue', 'team-llm', 8, 12]]);
  });

  describe("on KAI Scheduler's quick-start queues", () => {
    const REAL = loadReal('kai-scheduler');
    const PATH = 'kai-scheduler/kai-default-queues.yaml';

    it('reads both queues at a quota of 0, with no limit on borrowing', () => {
      const r = kaiQueueParser.parse(PATH, REAL[PATH] ?? '');
      expect(r.decls.map((d) => [d.name, d.gpus, d.borrowingLimit])).toEqual([
        ['default-parent-queue', 0, undefined],
        ['default-queue', 0, undefined],
      ]);
      expect(r.diagnostics).toEqual([]);
    });

    it('counts a quota given to the child queue, and holds an unbounded one as unknown', async () => {
      const raise = edited(REAL, [[PATH, /(name: default-queue[\s\S]*?gpu:\n {6}limit: -1\n {6}overQuotaWeight: 1\n {6}quota: )0/, '$18']]);
      expect(changeRows(await detectPr(REAL, raise)).map((r) => r.slice(0, 4))).toEqual([['kai-queue', 'default-queue', 0, 8]]);
      const unbounded = edited(REAL, [
        [PATH, /(name: default-queue[\s\S]*?gpu:\n {6}limit: -1\n {6}overQuotaWeight: 1\n {6}quota: )0/, '$1-1'],
      ]);
      const result = await detectPr(REAL, unbounded);
      expect(result.coverage).toEqual([expect.objectContaining({ file: PATH, state: 'not-followed' })]);
    });
  });
});
