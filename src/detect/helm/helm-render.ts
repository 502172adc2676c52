import { kubeStringify } from '../kit/kube-yaml.js';

/** A template rendered line by line: each output line knows the template line it came from. */
export type Rendered = { ok: true; text: string; lineOf: (renderedLine: number) => number } | { ok: false; why: string; line: number };

const EXPR_RE = /\{\{(-?)\s*(.*?)\s*(-?)\}\}/g;
const DIRECTIVE_RE = /^\s*\{\{-?\s*(if|else|end|range|with|define|template|block|\/\*)\b(.*?)\s*-?\}\}\s*$/;
const VALUES_PATH_RE = /^\$?\.Values((?:\.[A-Za-z_][\w-]*)+)$/;
const LITERAL_RE = /^(?:"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)|(true|false))$/;

type Lookup = { found: true; value: unknown } | { found: false };

function lookup(values: unknown, ref: string): Lookup | null {
  const m = VALUES_PATH_RE.exec(ref);
  if (!m) return null;
  let at: unknown = values;
  for (const step of (m[1] ?? '').slice(1).split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !(step in at)) return { found: false };
    at = (at as Record<string, unknown>)[step];
  }
  return { found: true, value: at };
}

function literal(text: string): Lookup | null {
  const m = LITERAL_RE.exec(text.trim());
  if (!m) return null;
  if (m[1] !== undefined) return { found: true, value: m[1] };
  if (m[2] !== undefined) return { found: true, value: Number(m[2]) };
  return { found: true, value: m[3] === 'true' };
}

/** Go template truth: false, 0, nil, and empty strings, lists and maps are false. */
function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

function toText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  // Values come from YAML: an object here always stringifies.
  return JSON.stringify(v);
}

function yamlOf(v: unknown): string {
  if (v === null || v === undefined) return '{}';
  if (typeof v !== 'object') return toText(v);
  return kubeStringify(v).replace(/\n$/, '');
}

/**
 * One pipeline of plain substitutions: `.Values.a.b`, `toYaml .Values.x`, `default 4 .Values.x`,
 * piped through quote, int, toString, default, toYaml, indent and nindent. Null for anything
 * else (functions, includes, variables): such an expression is left as it stands.
 */
function pipeline(expr: string, values: unknown): string | null {
  const stages = expr.split('|').map((s) => s.trim());
  const head = (stages.shift() ?? '').split(/\s+/);
  const [first = '', second = '', third = ''] = head;
  let v: Lookup | null;
  if (head.length === 1) v = lookup(values, first);
  else if (head.length === 2 && (first === 'toYaml' || first === 'quote' || first === 'int')) {
    v = lookup(values, second);
    stages.unshift(first);
  } else if (head.length === 3 && first === 'default') {
    const fallback = literal(second) ?? lookup(values, second);
    const given = lookup(values, third);
    if (fallback === null || given === null || !fallback.found) return null;
    v = given.found && truthy(given.value) ? given : fallback;
  } else return null;
  if (v === null || !v.found) return null;
  let value: unknown = v.value;
  let text: string | null = null;
  for (const stage of stages) {
    const [fn, arg] = stage.split(/\s+/);
    const current = (): string => text ?? toText(value);
    if (fn === 'quote') text = JSON.stringify(current());
    else if (fn === 'squote') text = `'${current()}'`;
    else if (fn === 'int' || fn === 'int64') text = String(Math.trunc(Number(current())));
    else if (fn === 'float64' || fn === 'toString') text = current();
    else if (fn === 'toYaml') text = yamlOf(value);
    else if (fn === 'default') {
      const fallback = literal(arg ?? '');
      if (fallback === null || !fallback.found) return null;
      if (!truthy(value)) value = fallback.value;
      text = null;
    } else if ((fn === 'indent' || fn === 'nindent') && arg !== undefined && /^\d+$/.test(arg)) {
      const pad = ' '.repeat(Number(arg));
      const body = current()
        .split('\n')
        .map((l) => pad + l)
        .join('\n');
      text = fn === 'nindent' ? `\n${body}` : body;
    } else return null;
  }
  return text ?? toText(value);
}

/** The condition of an `if` when it is a values path, `not` one, or a literal: its truth, else null. */
function condition(cond: string, values: unknown): boolean | null {
  const negated = /^not\s+/.exec(cond);
  const inner = negated ? cond.slice(negated[0].length).trim() : cond.trim();
  const v = lookup(values, inner) ?? literal(inner);
  if (v === null) return null;
  const t = v.found ? truthy(v.value) : false;
  return negated ? !t : t;
}

/**
 * Renders a chart template with the given values as far as plain substitutions go: values
 * substituted, `if` on a value decided, comments dropped. `range`, `with`, `define` and a
 * condition that is not a plain value are not rendered (the answer says where); expressions that
 * are not plain values (`include`, `.Release.Name`) are kept for the readers to quote.
 */
export function renderTemplate(text: string, values: unknown): Rendered {
  const out: { text: string; from: number }[] = [];
  const stack: boolean[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const directive = DIRECTIVE_RE.exec(line);
    if (directive) {
      const [, word, rest] = directive;
      if (word === '/*') continue;
      if (word === 'if') {
        const c = condition(rest ?? '', values);
        if (c === null) return { ok: false, why: `{{ if ${(rest ?? '').trim()} }}`, line: i + 1 };
        stack.push(c);
        continue;
      }
      if (word === 'else') {
        if (stack.length === 0 || (rest ?? '').trim() !== '') return { ok: false, why: `{{ else ${(rest ?? '').trim()} }}`, line: i + 1 };
        stack.push(!(stack.pop() as boolean));
        continue;
      }
      if (word === 'end') {
        if (stack.length === 0) return { ok: false, why: '{{ end }} without a block', line: i + 1 };
        stack.pop();
        continue;
      }
      return { ok: false, why: `{{ ${word} ${(rest ?? '').trim()} }}`, line: i + 1 };
    }
    if (stack.includes(false)) continue;
    const seen = { joinsAbove: false };
    const rendered = line.replace(EXPR_RE, (whole, left: string, expr: string) => {
      const r = pipeline(expr, values);
      if (r === null) return whole;
      // `{{- toYaml … | nindent n }}` alone on its line joins the line above, as Helm renders it.
      if (left === '-' && line.trim() === whole && r.startsWith('\n')) seen.joinsAbove = true;
      return r;
    });
    const text2 = seen.joinsAbove ? rendered.trimStart().replace(/^\n/, '') : rendered;
    for (const piece of text2.split('\n')) out.push({ text: piece, from: i + 1 });
  }
  if (stack.length > 0) return { ok: false, why: 'a block left open', line: lines.length };
  return { ok: true, text: out.map((o) => o.text).join('\n'), lineOf: (n) => out[n - 1]?.from ?? n };
}
