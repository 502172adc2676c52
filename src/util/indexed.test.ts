import { describe, expect, it } from 'vitest';
import { IndexInvariantError, itemAt } from './indexed.js';

describe('itemAt', () => {
  const shapes: [string, ArrayLike<number>][] = [
    ['an array', [3, 0, -1, 7]],
    ['an Int32Array', Int32Array.from([3, 0, -1, 7])],
    ['a Float64Array', Float64Array.from([3, 0, -1, 7])],
  ];

  it.each(shapes)('reads every index inside %s, zeros included', (_, items) => {
    for (let i = 0; i < items.length; i++) expect(itemAt(items, i, 'inside')).toBe(items[i]);
  });

  it.each(shapes)('throws naming the invariant for every index outside %s', (_, items) => {
    for (const index of [-1, items.length, items.length + 5, 1.5, Number.NaN]) {
      let thrown: unknown = null;
      try {
        itemAt(items, index, 'sized by the slot count');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(IndexInvariantError);
      expect((thrown as IndexInvariantError).invariant).toBe('sized by the slot count');
      expect((thrown as IndexInvariantError).message).toContain('sized by the slot count');
    }
  });
});
