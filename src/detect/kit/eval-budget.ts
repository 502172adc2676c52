import { GpuJustifyError } from '../../domain/errors.js';

/**
 * What evaluating the expressions of one reading (a Terraform folder, a Bicep template) may cost.
 * A pull request writes these expressions: a few lines can double a list thirty times
 * (`concat(local.a, local.a)` through a chain of locals), nest loops over large ranges or recurse
 * through variables. Every node evaluated and every element, map entry or character produced is a
 * step; a reading that needs more than `MAX_EVAL_STEPS`, a list longer than `MAX_ELEMENTS`, a string
 * longer than `MAX_STRING_CHARS` or references nested deeper than `MAX_REFERENCE_DEPTH` stops, and its
 * files are reported as not read, naming the budget. Real modules use under a thousand steps; the
 * whole budget is spent in well under a second.
 */
const MAX_EVAL_STEPS = 400_000;
const MAX_ELEMENTS = 20_000;
/** Elements of a value counted at every depth: `[local.a, local.a]` weighs twice what `local.a` does. */
const MAX_VALUE_WEIGHT = 100_000;
const MAX_STRING_CHARS = 1_048_576;
const MAX_REFERENCE_DEPTH = 64;
// Characters of a string that count as one step.
const CHARS_PER_STEP = 64;

/** Thrown once a budget is spent; never caught by `try()` or `can()`, and never taken for an unknown value. */
export class BudgetExceeded extends GpuJustifyError {
  override readonly kind = 'budget-exceeded';
}

export class Budget {
  private used = 0;
  private depth = 0;
  /** Why evaluation stopped, once it has: every later evaluation stops at once. */
  exceeded: string | null = null;

  constructor(private readonly maxSteps: number = MAX_EVAL_STEPS) {}

  /** Steps spent so far. */
  get spent(): number {
    return this.used;
  }

  /** Counts `n` steps of work. */
  charge(n = 1): void {
    if (this.exceeded !== null) throw new BudgetExceeded(this.exceeded);
    this.used += n;
    if (this.used > this.maxSteps) this.stop(`more than ${this.maxSteps.toLocaleString('en-US')} evaluation steps`);
  }

  /** Counts a value being made, and refuses one past the size limits. */
  made(size: number, what: 'list' | 'string'): void {
    if (what === 'list' && size > MAX_ELEMENTS) this.stop(`a list or map of more than ${MAX_ELEMENTS.toLocaleString('en-US')} elements`);
    if (what === 'string' && size > MAX_STRING_CHARS)
      this.stop(`a string of more than ${MAX_STRING_CHARS.toLocaleString('en-US')} characters`);
    this.charge(what === 'list' ? 1 + size : 1 + Math.floor(size / CHARS_PER_STEP));
  }

  /**
   * Counts a list or map just made by what it holds at every depth, and refuses one past
   * `MAX_VALUE_WEIGHT`: a value that shares parts (`[local.a, local.a]`, doubled thirty times) is
   * small in memory but huge to walk, print or compare.
   */
  weighed<T>(value: T): T {
    const w = weigh(value);
    if (w > MAX_VALUE_WEIGHT) this.stop(`a value of more than ${MAX_VALUE_WEIGHT.toLocaleString('en-US')} elements at all depths`);
    this.charge(1 + Math.min(w, MAX_VALUE_WEIGHT));
    return value;
  }

  /** Runs `fn` one reference deeper (a local read inside a local …). */
  nested<T>(fn: () => T): T {
    if (this.depth >= MAX_REFERENCE_DEPTH) this.stop(`references nested more than ${MAX_REFERENCE_DEPTH} deep`);
    this.depth++;
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  stop(why: string): never {
    this.exceeded ??= why;
    throw new BudgetExceeded(this.exceeded);
  }
}

// Weights of lists and maps, kept per object: a value is weighed once however often it is shared.
const weights = new WeakMap<object, number>();

/** Elements of a JSON-like value at every depth (long strings weigh more), each shared part counted where it appears. */
function weigh(v: unknown): number {
  if (typeof v === 'string') return 1 + Math.floor(v.length / CHARS_PER_STEP);
  if (v === null || typeof v !== 'object') return 1;
  const known = weights.get(v);
  if (known !== undefined) return known;
  const proto: unknown = Object.getPrototypeOf(v);
  let w = 1;
  if (Array.isArray(v)) for (const x of v) w += weigh(x);
  else if (proto === Object.prototype || proto === null) for (const x of Object.values(v as Record<string, unknown>)) w += weigh(x);
  // Past the limit the sum only grows: stop adding, so a weight never overflows.
  w = Math.min(w, Number.MAX_SAFE_INTEGER);
  weights.set(v, w);
  return w;
}
