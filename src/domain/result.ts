/**
 * What a step that may fail without throwing returns: its value, or why not in one field, `error`.
 * Narrow on `ok`; the failure's type says what `error` holds (a sentence, a code, a record).
 */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
