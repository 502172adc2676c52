import { GpuJustifyError } from '../domain/errors.js';
import { escapeRegex } from '../util/escape-regex.js';

/**
 * PromQL is built here and only here: label values from the catalog and the PR are quoted and
 * escaped, label and metric names are checked, so no value can change a query's shape.
 */

type MatchOp = '=' | '!=' | '=~' | '!~';

export interface Matcher {
  name: string;
  op: MatchOp;
  value: string;
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

export class PromQLBuildError extends GpuJustifyError {
  override readonly kind = 'promql-build';
  override readonly name = 'PromQLBuildError';
}

export function labelName(name: string): string {
  if (!LABEL_NAME.test(name)) {
    throw new PromQLBuildError(`"${name}" is not a Prometheus label name ([a-zA-Z_][a-zA-Z0-9_]*)`);
  }
  return name;
}

function metricName(name: string): string {
  if (!METRIC_NAME.test(name)) throw new PromQLBuildError(`"${name}" is not a Prometheus metric name`);
  return name;
}

/** A PromQL double-quoted string literal holding exactly `value`. */
export function quote(value: string): string {
  let out = '"';
  for (const ch of value) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        break;
      case '"':
        out += '\\"';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      default: {
        const code = ch.codePointAt(0) ?? 0;
        out += code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : ch;
      }
    }
  }
  return `${out}"`;
}

export const eq = (name: string, value: string): Matcher => ({ name, op: '=', value });
export const ne = (name: string, value: string): Matcher => ({ name, op: '!=', value });
/** Matches any of the literal values (anchored, as PromQL regexes are). */
export const oneOf = (name: string, values: readonly string[]): Matcher => ({
  name,
  op: '=~',
  value: values.map(escapeRegex).join('|'),
});
/** A regex the code itself wrote (never a user value: use `oneOf` for those). */
export const re = (name: string, pattern: string): Matcher => ({ name, op: '=~', value: pattern });

export function matchersFrom(labels: Readonly<Record<string, string>>): Matcher[] {
  return Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => eq(k, v));
}

/** `metric{a="x",b!="y"}`. */
export function selector(metric: string, matchers: readonly Matcher[]): string {
  const inner = matchers.map((m) => `${labelName(m.name)}${m.op}${quote(m.value)}`).join(',');
  return `${metricName(metric)}{${inner}}`;
}

/** A PromQL duration from whole minutes (`90` → `90m`). */
export function minutes(n: number): string {
  if (!Number.isInteger(n) || n <= 0) throw new PromQLBuildError(`a duration must be a positive whole number of minutes, got ${n}`);
  return `${n}m`;
}

/** A PromQL number literal; NaN and infinities are refused rather than written. */
export function num(n: number): string {
  if (!Number.isFinite(n)) throw new PromQLBuildError(`${n} is not a finite number`);
  return String(n);
}

/** `by (a, b)` / `without (a)` clause with checked label names. */
export function labelList(names: readonly string[]): string {
  return `(${names.map(labelName).join(', ')})`;
}
