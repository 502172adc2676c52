import { describe, expect, it } from 'vitest';
import { compareSides } from './compare.js';
import type { ParseResult, UnresolvedDecl } from './parser.js';
import type { CapacityDecl } from '../domain/index.js';

function decl(name: string, gpus: number, file = 'queues.yaml', line = 10, gpuModel: string | null = null): CapacityDecl {
  return {
    file,
    line,
    kind: 'kueue-cluster-queue',
    name,
    gpuModel,
    gpus,
    parts: [{ label: 'default', resource: 'nvidia.com/gpu', gpus, line }],
  };
}

function side(decls: CapacityDecl[], unresolved: UnresolvedDecl[] = []): ParseResult {
  return { decls, diagnostics: [], unresolved };
}

function unknown(name: string, file = 'queues.yaml', line = 10): UnresolvedDecl {
  return { file, line, kind: 'kueue-cluster-queue', name };
}

const summary = (changes: ReturnType<typeof compareSides>) =>
  changes.map((c) => [c.name, c.file, c.line, c.gpusBefore, c.gpusAfter, c.delta]);

describe('compareSides', () => {
  it('reports a raised quota at the head position, keeping both declarations', () => {
    const before = decl('research', 4, 'queues.yaml', 12);
    const after = decl('research', 8, 'queues.yaml', 14, 'A100');
    const [change, ...rest] = compareSides(side([before]), side([after]));
    expect(rest).toEqual([]);
    expect(change).toEqual({
      file: 'queues.yaml',
      line: 14,
      kind: 'kueue-cluster-queue',
      name: 'research',
      gpuModel: 'A100',
      gpusBefore: 4,
      gpusAfter: 8,
      delta: 4,
      before,
      after,
      // Catalog default for A100 × 4 added GPUs × 730 hours.
      usdPerGpuHour: 3.67,
      usdPerMonthDelta: 10716.4,
    });
  });

  it('reports a lowered quota with a negative delta', () => {
    expect(summary(compareSides(side([decl('r', 8)]), side([decl('r', 2)])))).toEqual([['r', 'queues.yaml', 10, 8, 2, -6]]);
  });

  it('counts an added queue from 0', () => {
    const [change] = compareSides(side([]), side([decl('new', 6, 'b.yaml', 3)]));
    expect(change).toMatchObject({ name: 'new', file: 'b.yaml', line: 3, gpusBefore: 0, gpusAfter: 6, delta: 6 });
    expect(change).not.toHaveProperty('before');
  });

  it('counts a deleted queue down to 0, at its base position', () => {
    const [change] = compareSides(side([decl('gone', 5, 'old.yaml', 7)]), side([]));
    expect(change).toMatchObject({ name: 'gone', file: 'old.yaml', line: 7, gpusBefore: 5, gpusAfter: 0, delta: -5 });
    expect(change).not.toHaveProperty('after');
  });

  it('follows a queue moved to another file: a change only when its total differs', () => {
    expect(compareSides(side([decl('q', 4, 'a.yaml')]), side([decl('q', 4, 'b.yaml')]))).toEqual([]);
    expect(summary(compareSides(side([decl('q', 4, 'a.yaml')]), side([decl('q', 6, 'b.yaml', 2)])))).toEqual([['q', 'b.yaml', 2, 4, 6, 2]]);
  });

  it('reports nothing for unchanged totals, even when lines and flavors moved', () => {
    const before = decl('q', 8, 'a.yaml', 10);
    const after = {
      ...decl('q', 8, 'a.yaml', 30),
      parts: [
        { label: 'x', resource: 'nvidia.com/gpu', gpus: 5, line: 30 },
        { label: 'y', resource: 'nvidia.com/gpu', gpus: 3, line: 34 },
      ],
    };
    expect(compareSides(side([before]), side([after]))).toEqual([]);
  });

  it('reports nothing for an added queue with a zero quota', () => {
    expect(compareSides(side([]), side([decl('borrower', 0)]))).toEqual([]);
  });

  it('keeps same-named queues of different overlays apart', () => {
    const base = side([decl('research', 4, 'clusters/prod/q.yaml'), decl('research', 2, 'clusters/staging/q.yaml')]);
    const head = side([decl('research', 4, 'clusters/prod/q.yaml'), decl('research', 3, 'clusters/staging/q.yaml')]);
    expect(summary(compareSides(base, head))).toEqual([['research', 'clusters/staging/q.yaml', 10, 2, 3, 1]]);
  });

  it('does not match across kinds', () => {
    const pool: CapacityDecl = { ...decl('gpu', 4), kind: 'karpenter-nodepool' };
    const changes = compareSides(side([pool]), side([decl('gpu', 4)]));
    expect(changes.map((c) => [c.kind, c.delta])).toEqual([
      ['karpenter-nodepool', -4],
      ['kueue-cluster-queue', 4],
    ]);
  });

  it('gives no change when either side could not be read, rather than inventing 0', () => {
    expect(compareSides(side([decl('q', 8)]), side([], [unknown('q')]))).toEqual([]);
    expect(compareSides(side([], [unknown('q')]), side([decl('q', 8)]))).toEqual([]);
    // Without the unresolved marker the same head would read as a deletion.
    expect(summary(compareSides(side([decl('q', 8)]), side([])))).toEqual([['q', 'queues.yaml', 10, 8, 0, -8]]);
  });

  it('sorts by file, then line', () => {
    const head = side([decl('c', 1, 'b.yaml', 5), decl('a', 1, 'b.yaml', 2), decl('b', 1, 'a.yaml', 40)]);
    expect(compareSides(side([]), head).map((c) => c.name)).toEqual(['b', 'a', 'c']);
  });

  it('is pure: the inputs are left as they were', () => {
    const base = side([decl('q', 1)]);
    const head = side([decl('q', 2), decl('r', 3)]);
    const copy = structuredClone({ base, head });
    compareSides(base, head);
    expect({ base, head }).toEqual(copy);
  });
});
