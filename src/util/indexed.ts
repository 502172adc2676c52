/**
 * An index the code's own invariant keeps inside its array fell outside it: a bug in this project,
 * never bad input. It has no `kind` on purpose (domain/errors.ts): it is labelled unexpected.
 */
export class IndexInvariantError extends Error {
  readonly invariant: string;
  readonly index: number;
  readonly length: number;

  constructor(invariant: string, index: number, length: number) {
    super(`index ${String(index)} read outside ${String(length)} items, against the invariant: ${invariant}`);
    this.name = 'IndexInvariantError';
    this.invariant = invariant;
    this.index = index;
    this.length = length;
  }
}

/**
 * `items[index]` where the caller's invariant says it exists (an array sized by the loop that
 * reads it, a map of one text's characters): the read is typed `T`, and a broken invariant throws
 * naming it instead of reading on with a made-up `0`. `invariant` is a phrase, or a kebab-case
 * code in analysis/, which writes no sentences (a doc comment beside it says it in words). Where a
 * missing item has a meaning (a count never started is zero), the caller writes its default beside
 * the read, not this.
 */
export function itemAt<T>(items: ArrayLike<T>, index: number, invariant: string): T {
  const item = items[index];
  if (item === undefined) throw new IndexInvariantError(invariant, index, items.length);
  return item;
}
