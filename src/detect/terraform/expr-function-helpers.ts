import type { Budget } from '../kit/eval-budget.js';
import { canonical, describe, isMap, known, num, toText, Unk, Unresolved } from './expr-values.js';
import type { PValue, Value } from './expr-values.js';

/**
 * What the built-in functions of `expr-functions.ts` share: a call's context, reading an argument
 * as the list, map or numbers a function needs (or failing as Terraform would), charging the
 * budget for what a call makes, and the longer bodies (`format`, `flatten`, sets, `trim`).
 */

/** Where a call is evaluated: the budget it spends, and its source for messages. */
export interface CallContext {
  budget: Budget;
  text: string;
}

type Fn = (args: PValue[], ctx: CallContext) => PValue;

/** A function, and whether it takes arguments with unknown parts (`merge({a = module.x.id}, …)`); others need them known. */
export interface Builtin {
  fn: Fn;
  partial?: true;
}

// Terraform's own limit on range().
export const MAX_RANGE = 1024;

export const fail = (why: string): never => {
  throw new Unresolved(why, true);
};

export function unknownOf(v: PValue): never {
  throw new Unresolved((v as Unk).culprit, (v as Unk).error);
}

export function list(v: PValue | undefined, where: string): PValue[] {
  if (v instanceof Unk) unknownOf(v);
  if (Array.isArray(v)) return v;
  return fail(`${describe(v ?? null)} where ${where} needs a list`);
}

export function map(v: PValue | undefined, where: string): Record<string, PValue> {
  if (v instanceof Unk) unknownOf(v);
  if (isMap(v)) return v;
  return fail(`${describe(v ?? null)} where ${where} needs a map`);
}

export function made<T extends PValue>(ctx: CallContext, v: T): T {
  if (Array.isArray(v)) ctx.budget.made(v.length, 'list');
  else if (typeof v === 'string') ctx.budget.made(v.length, 'string');
  else if (isMap(v)) ctx.budget.made(Object.keys(v).length, 'list');
  return v;
}

/** A set as Terraform orders it: no duplicates, strings in lexical order, numbers by value. */
export function asSet(items: readonly Value[]): Value[] {
  const seen = new Map<string, Value>();
  for (const x of items) seen.set(canonical(x), x);
  return [...seen.values()].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : canonical(a) < canonical(b) ? -1 : canonical(a) > canonical(b) ? 1 : 0,
  );
}

export function numbers(args: PValue[], where: string): number[] {
  return args.map((x) => num(x, where));
}

/** Widths above this are not a name or a label but a way to make huge strings: not followed. */
const MAX_FORMAT_WIDTH = 1024;

/**
 * Terraform's `format`, for the verbs and flags it can be told exactly: a width pads (with zeros
 * under `0`, on the right under `-`), `+` signs a number, a precision cuts a `%s` or fixes a `%f`.
 * Anything else (`#`, a space flag, a precision on an integer, a width over MAX_FORMAT_WIDTH) is
 * not followed: ignoring a flag would give a wrong string, and `length()` of it a wrong count.
 */
export function format(spec: string, args: PValue[]): string {
  let i = 0;
  return spec.replace(
    /%(%|([-+ #0]*)(\d*)(?:\.(\d+))?([sdvqfxX]))/g,
    (_m, whole: string, flags: string, width: string, precision: string | undefined, verb: string) => {
      if (whole === '%') return '%';
      const v = args[i++];
      if (v === undefined) return fail(`format() has fewer arguments than its "${spec}" asks for`);
      const wide = width === '' ? 0 : Number(width);
      if (wide > MAX_FORMAT_WIDTH) return fail(`format() with a width of ${width}, over ${MAX_FORMAT_WIDTH}`);
      if (/[ #]/.test(flags)) return fail(`format() with the flags "${flags}", which gpu-justify does not apply`);
      if (precision !== undefined && verb !== 's' && verb !== 'f') return fail(`format() with a precision on %${verb}`);
      const text = formatVerb(verb, v, precision, flags.includes('+'));
      return pad(text, wide, flags.includes('-'), flags.includes('0') && 'dfxX'.includes(verb));
    },
  );
}

function formatVerb(verb: string, v: PValue, precision: string | undefined, plus: boolean): string {
  const signed = (n: number, text: string): string => (plus && n >= 0 ? `+${text}` : text);
  switch (verb) {
    case 'd': {
      const n = Math.trunc(num(v, 'format %d'));
      return signed(n, String(n));
    }
    case 'f': {
      const n = num(v, 'format %f');
      return signed(n, n.toFixed(precision === undefined ? 6 : Math.min(Number(precision), 100)));
    }
    case 'x':
    case 'X': {
      const hex = Math.trunc(num(v, 'format %x')).toString(16);
      return verb === 'X' ? hex.toUpperCase() : hex;
    }
    case 'q':
      return JSON.stringify(toText(v));
    default: {
      const text = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(known(v));
      return verb === 's' && precision !== undefined ? [...text].slice(0, Number(precision)).join('') : text;
    }
  }
}

/** Pads to `width` characters as Go's fmt does: zeros after a sign, or spaces on either side. */
function pad(text: string, width: number, left: boolean, zeros: boolean): string {
  const short = width - [...text].length;
  if (short <= 0) return text;
  if (left) return text + ' '.repeat(short);
  if (!zeros) return ' '.repeat(short) + text;
  const sign = /^[+-]/.test(text) ? text.slice(0, 1) : '';
  return sign + '0'.repeat(short) + text.slice(sign.length);
}

export function flatten(v: PValue, ctx: CallContext, out: PValue[] = []): PValue[] {
  for (const x of list(v, 'flatten')) {
    ctx.budget.charge();
    if (x instanceof Unk) unknownOf(x);
    if (Array.isArray(x)) flatten(x, ctx, out);
    else out.push(x);
    ctx.budget.made(out.length, 'list');
  }
  return out;
}

export function trimChars(s: string, cut: string): string {
  const set = new Set(cut);
  let a = 0;
  let b = s.length;
  while (a < b && set.has(s[a] as string)) a++;
  while (b > a && set.has(s[b - 1] as string)) b--;
  return s.slice(a, b);
}
