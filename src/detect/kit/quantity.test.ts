import { describe, expect, it } from 'vitest';
import { parseQuantity } from './quantity.js';

describe('parseQuantity', () => {
  it.each([
    [4, 4],
    [4.0, 4],
    [0, 0],
    ['4', 4],
    ['04', 4],
    ['4.0', 4],
    ['2k', 2000],
    ['0.1k', 100],
    ['500m', 0.5],
    ['1500m', 1.5],
    ['2M', 2_000_000],
    ['1E', 1e18],
    ['1e3', 1000],
    ['1E3', 1000],
    ['25e-1', 2.5],
    ['1Ki', 1024],
    ['2Gi', 2 * 1024 ** 3],
    ['.5', 0.5],
    ['+3', 3],
    ['-2', -2],
  ] as [unknown, number][])('%j is %d', (input, expected) => {
    expect(parseQuantity(input)).toBe(expected);
  });

  it.each([
    ['four'],
    [''],
    [' 4'],
    ['4 '],
    ['4KB'],
    ['4ki'],
    ['1.2.3'],
    ['${num_gpus}'],
    ['{{ .gpu }}'],
    [null],
    [true],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [{ gpu: 4 }],
  ] as [unknown][])('%j is not a quantity', (input) => {
    expect(parseQuantity(input)).toBeNull();
  });
});
