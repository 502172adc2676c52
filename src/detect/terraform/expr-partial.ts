import { Unk, Unresolved } from './expr-values.js';
import type { PValue } from './expr-values.js';

/** An element of a tuple or object: what cannot be known stays unknown there, without spoiling the rest. */
export function partly(fn: () => PValue): PValue {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Unresolved) return new Unk(err.culprit, err.error);
    throw err;
  }
}
