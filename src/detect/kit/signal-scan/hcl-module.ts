import type { Lines } from '../lines.js';
import { lineStarts } from './structure.js';
import { scanStructure } from './scan-structure.js';
import type { Structure } from './structure.js';
import { syntaxOf } from './syntax.js';

/** A top-level block of an HCL file: `resource "aws_eks_node_group" "gpu" { … }`, `locals { … }`. */
export interface HclBlock {
  type: string;
  labels: string[];
  from: number;
  to: number;
}

const HEADER = /^[ \t]*([A-Za-z_][\w-]*)((?:[ \t]+"[^"\n]*"|[ \t]+[A-Za-z_][\w-]*)*)[ \t]*\{/;

/** The top-level blocks of an HCL text, with their lines. */
export function hclBlocks(text: string, structure: Structure = scanStructure(text, syntaxOf('x.tf'))): HclBlock[] {
  const lines = text.split('\n');
  const out: HclBlock[] = [];
  for (const c of structure.containers) {
    const parent = c.parent >= 0 ? structure.containers[c.parent] : undefined;
    if (parent?.document !== true || parent.parent !== -1) continue;
    const m = HEADER.exec(lines[c.start - 1] ?? '');
    if (!m) continue;
    const labels = [...(m[2] ?? '').matchAll(/"([^"]*)"|([A-Za-z_][\w-]*)/g)].map((l) => l[1] ?? l[2] ?? '');
    out.push({ type: m[1] ?? '', labels, from: c.start, to: c.end });
  }
  return out;
}

/** The entries of a `locals` block: each name with the lines of its value. */
export function localEntries(text: string, block: HclBlock): { name: string; from: number; to: number }[] {
  const lines = text.split('\n');
  const out: { name: string; from: number; to: number }[] = [];
  let depth = 0;
  for (let n = block.from + 1; n < block.to; n++) {
    const line = (lines[n - 1] ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(?:#|\/\/).*$/, '');
    const m = depth === 0 ? /^[ \t]*([A-Za-z_][\w-]*)[ \t]*=(?!=)/.exec(line) : null;
    if (m) out.push({ name: m[1] ?? '', from: n, to: n });
    else if (out.length > 0) (out[out.length - 1] as { to: number }).to = n;
    for (const c of line) {
      if (c === '{' || c === '[' || c === '(') depth++;
      else if (c === '}' || c === ']' || c === ')') depth = Math.max(0, depth - 1);
    }
  }
  return out;
}

/** Lines of a text where `var.name` or `local.name` is read. */
export function referenceLines(text: string, what: 'var' | 'local' | 'data.template_file', name: string): number[] {
  const starts = lineStarts(text);
  const re = new RegExp(`\\b${what.replace(/\./g, '\\.')}\\.${name.replace(/[-]/g, '\\-')}\\b`, 'g');
  const out: number[] = [];
  let s = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    while (s + 1 < starts.length && (starts[s + 1] ?? 0) <= m.index) s++;
    out.push(s + 1);
  }
  return out;
}

/** True when `line` lies in one of `spans`. */
export function within(spans: readonly Lines[], line: number): boolean {
  return spans.some((s) => s.from <= line && line <= s.to);
}
