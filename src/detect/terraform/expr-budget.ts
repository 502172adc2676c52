import type { Expr } from './expr-parse.js';

/**
 * What evaluating one set of Terraform files may cost. A pull request writes these expressions:
 * a few lines can double a list thirty times (`concat(local.a, local.a)` through a chain of
 * locals), nest `for` expressions over large ranges or recurse through locals. Every node
 * evaluated and every element, map entry or character produced is a step; a set that needs more
 * than `MAX_EVAL_STEPS`, a list longer than `MAX_ELEMENTS`, a string longer than `MAX_STRING_CHARS`
 * or references nested deeper than `MAX_REFERENCE_DEPTH` stops, and its files are reported as not
 * read, naming the budget. Real modules use a few thousand steps.
 */
export const MAX_EVAL_STEPS = 400_000;
export const MAX_ELEMENTS = 20_000;
export const MAX_STRING_CHARS = 1_048_576;
export const MAX_REFERENCE_DEPTH = 64;
// Characters of a string that count as one step.
const CHARS_PER_STEP = 64;

/** Thrown once a budget is spent; never caught by `try()` or `can()`, and never taken for an unknown value. */
export class BudgetExceeded extends Error {
  readonly kind = 'budget-exceeded';
}

export class Budget {
  private used = 0;
  private depth = 0;
  /** Why evaluation stopped, once it has: every later evaluation stops at once. */
  exceeded: string | null = null;
  /** Expressions parsed from their source text, so a local read a thousand times is parsed once. */
  readonly parsed = new Map<string, Expr | Error>();

  constructor(private readonly maxSteps: number = MAX_EVAL_STEPS) {}

  /** Counts `n` steps of work. */
  charge(n = 1): void {
    if (this.exceeded !== null) throw new BudgetExceeded(this.exceeded);
    this.used += n;
    if (this.used > this.maxSteps) this.stop(`more than ${this.maxSteps.toLocaleString('en-US')} evaluation steps`);
  }

  /** Counts a value being made, and refuses one past the size limits. */
  made(size: number, what: 'list' | 'string'): void {
    if (what === 'list' && size > MAX_ELEMENTS) this.stop(`a list or map of more than ${MAX_ELEMENTS.toLocaleString('en-US')} elements`);
    if (what === 'string' && size > MAX_STRING_CHARS) this.stop(`a string of more than ${MAX_STRING_CHARS.toLocaleString('en-US')} characters`);
    this.charge(what === 'list' ? 1 + size : 1 + Math.floor(size / CHARS_PER_STEP));
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

/** The message a set of files gets when its budget ran out. */
export function budgetMessage(why: string): string {
  return `evaluating the Terraform expressions of this folder went over gpu-justify's budget (${why}); nothing they declare was read, so the GPU capacity here is not checked`;
}
