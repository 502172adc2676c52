// Vitest's asymmetric matchers, typed unknown instead of any: they are placeholders inside an
// expected value, and with any the no-unsafe-* rules would stop checking the values around them.
import { expect } from 'vitest';

export const match = {
  any: (constructor: unknown): unknown => expect.any(constructor),
  arrayContaining: (expected: readonly unknown[]): unknown => expect.arrayContaining([...expected]),
  objectContaining: (expected: object): unknown => expect.objectContaining(expected),
  stringContaining: (expected: string): unknown => expect.stringContaining(expected),
  stringMatching: (expected: string | RegExp): unknown => expect.stringMatching(expected),
  toBeOneOf: <T>(sample: readonly T[]): unknown => expect.toBeOneOf(sample as T[]),
};
