import { describe, expect, it } from 'vitest';
import { applyJsonPatch, strategicMerge } from './patch-apply.js';
import type { Json } from './patch-apply.js';

const queue: Json = {
  kind: 'ClusterQueue',
  metadata: { name: 'q', labels: { team: 'a' } },
  spec: {
    cohort: 'org',
    resourceGroups: [
      {
        flavors: [
          {
            name: 'a100',
            resources: [
              { name: 'cpu', nominalQuota: 8 },
              { name: 'nvidia.com/gpu', nominalQuota: 4 },
            ],
          },
        ],
      },
    ],
  },
};

describe('strategicMerge on custom resources', () => {
  it('merges maps, replaces lists whole, deletes keys set to null', () => {
    const merged = strategicMerge(queue, {
      metadata: { labels: { tier: 'gold' } },
      spec: { cohort: null, resourceGroups: [{ flavors: [{ name: 'a100', resources: [{ name: 'nvidia.com/gpu', nominalQuota: 16 }] }] }] },
    });
    expect(merged).toEqual({
      kind: 'ClusterQueue',
      metadata: { name: 'q', labels: { team: 'a', tier: 'gold' } },
      spec: { resourceGroups: [{ flavors: [{ name: 'a100', resources: [{ name: 'nvidia.com/gpu', nominalQuota: 16 }] }] }] },
    });
  });

  it('honours $patch: delete and $patch: replace', () => {
    expect(strategicMerge(queue, { $patch: 'delete' })).toBeUndefined();
    expect(strategicMerge({ spec: { a: 1, b: 2 } }, { spec: { $patch: 'replace', b: 3 } })).toEqual({ spec: { b: 3 } });
  });
});

describe('applyJsonPatch', () => {
  it('replaces a GPU quota by index and adds a limit through an escaped key', () => {
    const r = applyJsonPatch(queue, [{ op: 'replace', path: '/spec/resourceGroups/0/flavors/0/resources/1/nominalQuota', value: 12 }]);
    expect(
      r.ok &&
        (r.value as { spec: { resourceGroups: { flavors: { resources: { nominalQuota: number }[] }[] }[] } }).spec.resourceGroups[0]
          ?.flavors[0]?.resources[1]?.nominalQuota,
    ).toBe(12);
    expect(applyJsonPatch({ spec: { limits: { cpu: 10 } } }, [{ op: 'add', path: '/spec/limits/nvidia.com~1gpu', value: 8 }])).toEqual({
      ok: true,
      value: { spec: { limits: { cpu: 10, 'nvidia.com/gpu': 8 } } },
    });
  });

  it('appends with -, removes, moves, and leaves its input alone', () => {
    const input: Json = { a: [1, 2], b: { c: 3 } };
    const r = applyJsonPatch(input, [
      { op: 'add', path: '/a/-', value: 9 },
      { op: 'remove', path: '/a/0' },
      { op: 'move', from: '/b/c', path: '/d' },
    ]);
    expect(r).toEqual({ ok: true, value: { a: [2, 9], b: {}, d: 3 } });
    expect(input).toEqual({ a: [1, 2], b: { c: 3 } });
  });

  it('fails, naming the operation, on a missing item, a failed test or an unknown op', () => {
    expect(applyJsonPatch(queue, [{ op: 'replace', path: '/spec/resourceGroups/3', value: {} }])).toEqual({
      ok: false,
      error: 'operation 1 (replace /spec/resourceGroups/3): no item 3',
    });
    expect(applyJsonPatch(queue, [{ op: 'replace', path: '/spec/resourceGroups/3/flavors', value: [] }])).toEqual({
      ok: false,
      error: 'operation 1 (replace /spec/resourceGroups/3/flavors): the parent does not exist',
    });
    expect(applyJsonPatch(queue, [{ op: 'test', path: '/spec/cohort', value: 'other' }])).toEqual({
      ok: false,
      error: 'operation 1 (test /spec/cohort): test failed',
    });
    expect(applyJsonPatch(queue, [{ op: 'frobnicate', path: '/spec' }])).toEqual({
      ok: false,
      error: 'operation 1 (frobnicate /spec): unknown op frobnicate',
    });
    expect(applyJsonPatch(queue, [{ path: '/spec' }])).toEqual({ ok: false, error: 'operation 1 has no op or path' });
  });
});
