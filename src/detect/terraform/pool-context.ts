import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl, Diagnostic } from '../../domain/index.js';
import type { UnresolvedDecl } from '../parser.js';
import { evaluate } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';
import type { Locator, Span } from './locator.js';
import { GpuJustifyError } from '../../domain/errors.js';

/** A key path into the block, for the locator: `'name'` or `['dynamic', 'guest_accelerator']`. */
export type LocPath = readonly (string | readonly string[])[];

/** What a module call's argument known only once applied (an id, a module output) stands in as, so the rest still evaluates. */
export const AFTER_APPLY = '(known after apply)';

export class Unknown extends GpuJustifyError {
  override readonly kind = 'unknown-value';
}

/**
 * One node pool being read: evaluates its attributes in the module scope and reports, at the
 * attribute's line, any that cannot be known statically.
 */
export class PoolContext {
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    readonly file: string,
    readonly loc: Locator,
    readonly block: Span,
    readonly scope: Scope,
    /** `google_container_node_pool.gpu["a"]`, for messages. */
    readonly address: string,
  ) {}

  line(path: LocPath): number {
    return this.loc.path(this.block, path)?.line ?? this.block.line;
  }

  /** The attribute's value; Unknown (after a warning) when it cannot be evaluated. */
  value(raw: unknown, what: string, path: LocPath, scope: Scope = this.scope): Value {
    const r = evaluate(raw, scope);
    if (r.ok) return r.value;
    const source = typeof raw === 'string' ? exprText(raw) : null;
    const via = source === null || r.error.startsWith(source) ? `comes from ${r.error}` : `= ${source} uses ${r.error}`;
    this.warn(this.line(path), `${what} ${via}: cannot tell the GPU count`);
    throw new Unknown(what);
  }

  /** A whole number of nodes or GPUs, or null when the attribute is absent or null. */
  count(raw: unknown, what: string, path: LocPath, scope: Scope = this.scope): number | null {
    if (raw === undefined) return null;
    const v = this.value(raw, what, path, scope);
    if (v === null) return null;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 0) {
      this.warn(this.line(path), `${what} is ${JSON.stringify(v)}, not a whole number: cannot tell the GPU count`);
      throw new Unknown(what);
    }
    return n;
  }

  warn(line: number, message: string): void {
    this.diagnostics.push(diagnostic(this.file, line, 'warning', `${this.address}: ${message}`));
  }
}

/** `${var.x}` → `var.x`; other strings as they are. */
export function exprText(raw: string): string {
  const m = /^\$\{([\s\S]*)\}$/.exec(raw);
  return m && !m[1]?.includes('${') ? (m[1] ?? '').trim() : raw;
}

export interface PoolOutcome {
  decls: CapacityDecl[];
  unresolved: UnresolvedDecl[];
  diagnostics: Diagnostic[];
}

export function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? (v as unknown[]) : v === undefined ? [] : [v];
}

export function single(v: unknown): Record<string, unknown> {
  const x: unknown = Array.isArray(v) ? v[v.length - 1] : v;
  return x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {};
}
