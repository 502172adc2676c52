import type { Budget } from '../kit/eval-budget.js';
import { GpuJustifyError } from '../../domain/errors.js';

/** A value fully known statically. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/**
 * A value only known once applied, or from outside the files read (a module output, a variable
 * without a value): it may sit inside a known list or map, and spoils only what reads it.
 * `error`: it stands for an evaluation error (a missing key), which `try()` and `can()` catch.
 */
export class Unk {
  constructor(
    readonly culprit: string,
    readonly error = false,
  ) {}
}

/** A value that may hold unknown parts. */
export type PValue = null | boolean | number | string | PValue[] | { [key: string]: PValue } | Unk;

/**
 * A value that cannot be known without running Terraform; `culprit` names the cause. `error`:
 * an evaluation error Terraform would report (a missing key, a type mismatch), which `try()`
 * skips; otherwise the value is unknown here, and `try()` cannot choose either.
 */
export class Unresolved extends GpuJustifyError {
  override readonly kind = 'unresolved';
  constructor(
    readonly culprit: string,
    readonly error = false,
  ) {
    super(culprit);
  }
}

export function isMap(v: PValue | undefined): v is { [key: string]: PValue } {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Unk);
}

/** The value with no unknown part; Unresolved naming the first unknown otherwise. */
export function known(v: PValue): Value {
  if (v instanceof Unk) throw new Unresolved(v.culprit, v.error);
  if (Array.isArray(v)) {
    for (const x of v) known(x);
    return v as Value[];
  }
  if (isMap(v)) {
    for (const x of Object.values(v)) known(x);
    return v as { [key: string]: Value };
  }
  return v;
}

export function num(v: PValue | undefined, where: string): number {
  if (v instanceof Unk) throw new Unresolved(v.culprit, v.error);
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(v)) return Number(v);
  throw new Unresolved(`${describe(v ?? null)} where ${where} needs a number`, true);
}

export function truthy(v: PValue | undefined, where: string): boolean {
  if (v instanceof Unk) throw new Unresolved(v.culprit, v.error);
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new Unresolved(`${describe(v ?? null)} where ${where} needs a bool`, true);
}

export function toText(v: PValue | undefined): string {
  if (v instanceof Unk) throw new Unresolved(v.culprit, v.error);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new Unresolved(`${describe(v ?? null)} where a string is needed`, true);
}

export function describe(v: PValue): string {
  if (v instanceof Unk) return v.culprit;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}…"` : s;
}

/** Terraform's `==`: same type and value, unknown when either side has an unknown part. */
export function sameValue(a: PValue, b: PValue, budget: Budget): boolean {
  const x = canonical(known(a));
  const y = canonical(known(b));
  budget.made(x.length + y.length, 'string');
  return x === y;
}

/** A value as text that is equal for equal values: map keys in order. */
export function canonical(v: Value): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k] as Value)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** (key, value) of a list (index, item), a set of strings (the string, twice) or a map (key order). */
export function pairsOf(coll: PValue, where: string): [PValue, PValue][] {
  if (coll instanceof Unk) throw new Unresolved(coll.culprit, coll.error);
  if (Array.isArray(coll)) return coll.map((v, i) => [i, v]);
  if (isMap(coll))
    return Object.keys(coll)
      .sort()
      .map((k) => [k, coll[k] as PValue]);
  throw new Unresolved(`${where} over ${describe(coll)}`, true);
}
