import type { Result } from '../../domain/result.js';
import { MAX_GPU_COUNT } from '../../domain/limits.js';
import type { NodeContext } from './manifests.js';
import { parseQuantity } from './quantity.js';
import { findTemplateExpression } from './template.js';
import { nodeLine, nodeSource, scalarValue } from './yaml-nodes.js';

/** A count read from a node, at its line: the number, or why there is none (the message names the value). */
export type CountRead = Result<number, string> & { line: number };

// envsubst / clusterctl defaults: `${WORKER_MACHINE_COUNT:=2}`, `${X:-2}`.
const ENVSUBST_DEFAULT_RE = /^\$\{[A-Za-z_]\w*:?[=-]([^}]*)\}$/;

/** No pool or quota declares more (see MAX_GPU_COUNT). */
const MAX_COUNT = MAX_GPU_COUNT;

/** Reads a node count / GPU count / quantity; null when the node is absent. */
export function readCount(node: unknown, ctx: NodeContext, fallbackLine: number): CountRead | null {
  if (node === undefined || node === null) return null;
  const line = nodeLine(node, ctx.lc) ?? fallbackLine;
  const source = nodeSource(node, ctx.text).trim();
  const expr = findTemplateExpression(source);
  if (expr !== null) {
    const def = ENVSUBST_DEFAULT_RE.exec(expr)?.[1];
    return { ok: false, line, error: `is the template expression ${expr}${def ? ` (default ${def})` : ''}, unknown until rendered` };
  }
  const raw = scalarValue(node);
  if (raw === null || (raw === undefined && source === '')) return { ok: false, line, error: 'is empty' };
  const value = parseQuantity(raw);
  if (value === null) return { ok: false, line, error: `${source || '(a collection)'} is not a number` };
  if (value < 0) return { ok: false, line, error: `${source} is negative` };
  if (value > MAX_COUNT) return { ok: false, line, error: `${source} is more than ${MAX_COUNT.toLocaleString('en-US')}, not a real count` };
  return { ok: true, value, line };
}

/**
 * Reads a count the applier decodes into a Go integer (eksctl's maxSize, a MachineDeployment's
 * replicas): YAML resolved to JSON by sigs.k8s.io/yaml, then decoded as an int, so only a JSON
 * number with no fraction is taken. A string (`"4"`, even `"010"`) or a fraction makes the
 * applier refuse the object, so there is nothing to count; null when the node is absent.
 */
export function readWholeCount(node: unknown, ctx: NodeContext, fallbackLine: number): CountRead | null {
  const read = readCount(node, ctx, fallbackLine);
  if (read === null || !read.ok) return read;
  const raw = scalarValue(node);
  const source = nodeSource(node, ctx.text).trim();
  if (typeof raw === 'string')
    return { ok: false, line: read.line, error: `is the string ${source}, which the applier refuses for a whole number` };
  if (typeof raw !== 'number' || !Number.isInteger(raw)) return { ok: false, line: read.line, error: `${source} is not a whole number` };
  return read;
}

/** The default an envsubst expression carries, as a string, or null. */
export function envsubstDefault(source: string): string | null {
  const expr = findTemplateExpression(source);
  return expr === null ? null : (ENVSUBST_DEFAULT_RE.exec(expr)?.[1] ?? null);
}

/** A string value as written, or the template expression it holds. */
export function readString(node: unknown, ctx: NodeContext): { value: string } | { template: string } | null {
  if (node === undefined || node === null) return null;
  const source = nodeSource(node, ctx.text).trim();
  const expr = findTemplateExpression(source);
  if (expr !== null) return { template: expr };
  const raw = scalarValue(node);
  if (typeof raw === 'string' && raw.trim() !== '') return { value: raw.trim() };
  if (typeof raw === 'number') return { value: String(raw) };
  return null;
}
