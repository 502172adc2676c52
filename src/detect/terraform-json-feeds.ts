import type { Lines } from './kit/lines.js';

/**
 * The variables a `.tf.json` file declares (`{"variable": {"gpu_type": {…}}}`), each with the
 * lines of its object: the feed judges them as it judges an HCL `variable` block. A file that is
 * not JSON declares none (the Terraform parser reports it).
 */
export function jsonVariables(text: string): (Lines & { name: string })[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [];
  }
  const blocks = (body as { variable?: unknown } | null)?.variable;
  const names = [...new Set((Array.isArray(blocks) ? blocks : [blocks]).flatMap((b) => (isObject(b) ? Object.keys(b) : [])))];
  const at = text.search(/"variable"\s*:/);
  if (at < 0) return [];
  const out: (Lines & { name: string })[] = [];
  for (const name of names) {
    const key = new RegExp(`"${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:\\s*`, 'g');
    key.lastIndex = at;
    const m = key.exec(text);
    if (m === null) continue;
    const open = m.index + m[0].length;
    out.push({ name, from: lineAt(text, m.index), to: lineAt(text, closingOf(text, open)) });
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The index of what closes the JSON value opening at `from` (its last character for a scalar). */
function closingOf(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    if (depth === 0 && !inString && (c === '}' || c === ']' || c === ',' || c === '\n')) return i;
  }
  return text.length - 1;
}
