import type { Tree } from '../../real-fixtures.js';
import type { Rewrite, Row } from '../rewrite.js';
import { baseName, dirOf, join } from '../shapes/kube-files.js';
import { mapBicepTrees } from './bicep-values.js';
import { closeOf, codeMask, entryTemplates, MODULE, paramFilesOf, relativePath, resolveFrom } from './bicep-text.js';

/** A pool resource or a local module, not `existing`, its body opened on the declaration's line. */
const POOL = /^resource\s+([A-Za-z_]\w*)\s+'[^']*\/agentPools@[^']*'\s*=\s*(if\s*\(.*\)\s*)?\{[ \t]*$/gm;
const MODULE_DECL = /^module\s+([A-Za-z_]\w*)\s+'[^':]+'\s*=\s*(if\s*\(.*\)\s*)?\{[ \t]*$/gm;

interface Edit {
  at: number;
  end: number;
  text: string;
}

const applyEdits = (text: string, edits: Edit[]): string =>
  [...edits].sort((a, b) => b.at - a.at).reduce((t, e) => `${t.slice(0, e.at)}${e.text}${t.slice(e.end)}`, text);

/**
 * Each declaration `decl` finds put in a loop `[for gjI in range(0, n): …]` (its condition kept
 * as the loop's filter), and every use of its symbol in code indexed `[0]`: a copy is an item of
 * the collection. `name` rewrites the body's `name:` line (copies need names of their own).
 */
function looped(text: string, decl: RegExp, n: number, name?: (value: string) => string): string | null {
  const code = codeMask(text);
  const edits: Edit[] = [];
  const symbols: string[] = [];
  const spans: [number, number][] = [];
  for (const m of text.matchAll(decl)) {
    const at = m.index;
    if (!code[at]) continue;
    const open = at + m[0].lastIndexOf('{');
    const close = closeOf(text, open, code);
    if (close < 0) continue;
    const body = text.slice(open, close + 1);
    const nameLine = /^(\s+name:\s*)(.+?)[ \t]*$/m.exec(body);
    if (name && !nameLine) continue;
    symbols.push(m[1] ?? '');
    spans.push([at, open]);
    const eq = m[0].indexOf('=');
    edits.push({ at: at + eq, end: open + 1, text: `= [for gjI in range(0, ${n}): ${m[2] ?? ''}{` });
    edits.push({ at: close, end: close + 1, text: '}]' });
    if (name && nameLine) {
      const from = open + nameLine.index + (nameLine[1] ?? '').length;
      edits.push({ at: from, end: from + (nameLine[2] ?? '').length, text: name(nameLine[2] ?? '') });
    }
  }
  if (symbols.length === 0) return null;
  const use = new RegExp(String.raw`(?<![\w.])(${symbols.join('|')})\b(?!\s*:(?!:))`, 'g');
  for (const m of text.matchAll(use)) {
    if (!code[m.index] || spans.some(([a, b]) => m.index >= a && m.index <= b)) continue;
    // A whole collection is a valid `dependsOn` entry; a property or a parent wants one item.
    const after = text.slice(m.index + m[0].length);
    const line = text.slice(text.lastIndexOf('\n', m.index) + 1, m.index);
    if (!/^!?\./.test(after) && !/^\s*parent:\s*$/.test(line)) continue;
    edits.push({ at: m.index + m[0].length, end: m.index + m[0].length, text: '[0]' });
  }
  return applyEdits(text, edits);
}

function mapTemplates(files: Tree, fn: (text: string) => string | null): Tree | null {
  const out: Tree = { ...files };
  let touched = false;
  for (const [path, text] of Object.entries(files)) {
    if (!path.endsWith('.bicep')) continue;
    const next = fn(text);
    if (next === null || next === text) continue;
    out[path] = next;
    touched = true;
  }
  return touched ? out : null;
}

/** Each pool resource's `properties: {…}` split into `union({…}, {…})`, its entries halved in order. */
function unionProperties(text: string): string | null {
  const code = codeMask(text);
  const edits: Edit[] = [];
  for (const m of text.matchAll(POOL)) {
    const open = m.index + m[0].lastIndexOf('{');
    const close = closeOf(text, open, code);
    const props = /^(\s+)properties:\s*\{[ \t]*$/m.exec(text.slice(open, close));
    if (close < 0 || !props) continue;
    const pOpen = open + props.index + props[0].lastIndexOf('{');
    const pClose = closeOf(text, pOpen, code);
    if (pClose < 0) continue;
    // Entries start on lines at the object's own depth.
    const starts: number[] = [];
    let depth = 0;
    for (let i = pOpen + 1; i < pClose; i++) {
      if (text[i] === '\n' && depth === 0 && /\S/.test(text.slice(i + 1, text.indexOf('\n', i + 1)))) starts.push(i + 1);
      if (!code[i]) continue;
      if ('{[('.includes(text[i] ?? '')) depth++;
      else if ('}])'.includes(text[i] ?? '')) depth--;
    }
    if (starts.length < 2) continue;
    const cut = starts[Math.ceil(starts.length / 2)] ?? pClose;
    const indent = props[1]?.replace(/^\n+/, '') ?? '  ';
    edits.push({ at: pOpen, end: pOpen + 1, text: 'union({' });
    edits.push({ at: cut, end: cut, text: `${indent}}, {\n` });
    edits.push({ at: pClose, end: pClose + 1, text: '})' });
  }
  return edits.length === 0 ? null : applyEdits(text, edits);
}

/** Entry templates and their parameter files moved two folders down, their relative paths followed. */
function entriesDeeper(files: Tree): Tree | null {
  const entries = entryTemplates(files).filter((t) => MODULE.test(files[t] ?? '') || /\bload\w+\(\s*'/.test(files[t] ?? ''));
  MODULE.lastIndex = 0;
  if (entries.length === 0) return null;
  const out: Tree = { ...files };
  const to = (p: string) => join(join(dirOf(p), 'gj-env/prod'), baseName(p));
  for (const t of entries) {
    const moved = (files[t] ?? '')
      .replace(
        MODULE,
        (_all, head: string, rel: string, tail: string) => `${head}${relativePath(dirOf(to(t)), resolveFrom(t, rel))}${tail}`,
      )
      .replace(
        /(\bload\w+\(\s*')([^']+)(')/g,
        (_all, head: string, rel: string, tail: string) => `${head}${relativePath(dirOf(to(t)), resolveFrom(t, rel))}${tail}`,
      );
    delete out[t];
    out[to(t)] = moved;
    for (const p of paramFilesOf(files, t)) {
      delete out[p];
      out[to(p)] = (files[p] ?? '').replace(
        /^(\s*using\s+')([^']+)(')/m,
        (_all, head: string, _rel: string, tail: string) => `${head}${relativePath(dirOf(to(p)), to(t))}${tail}`,
      );
    }
  }
  return out;
}

const doubledPools = (rows: readonly Row[]): Row[] =>
  rows.map(([kind, name, before, after]) => (kind === 'aks-node-pool' ? [kind, name, before * 2, after * 2] : [kind, name, before, after]));

/** `'gpu'` → `'gpu-${gjI}'`; an expression → `'${expr}-${gjI}'`. */
const copyName = (value: string): string => (/^'[^'\\$]*'$/.test(value) ? `${value.slice(0, -1)}-\${gjI}'` : `'\${${value}}-\${gjI}'`);

/**
 * Bicep laid out otherwise: pools and modules in loops (of one copy, or two pools under names of
 * their own), a pool's properties a `union()` of two objects, and the entry template in another
 * folder than the modules it calls.
 */
export const BICEP_STRUCTURE: readonly Rewrite[] = [
  {
    id: 'bicep-pool-for-one',
    what: 'each AKS pool resource in `[for gjI in range(0, 1): {…}]`, its uses `[0]`',
    apply: (sides) => mapBicepTrees(sides, (files) => mapTemplates(files, (t) => looped(t, POOL, 1))),
  },
  {
    id: 'bicep-pool-for-two',
    what: "each AKS pool resource in `[for gjI in range(0, 2): {…}]`, named `'…-${gjI}'` (twice the GPUs)",
    apply: (sides) => mapBicepTrees(sides, (files) => mapTemplates(files, (t) => looped(t, POOL, 2, copyName))),
    expect: doubledPools,
  },
  {
    id: 'bicep-module-for-one',
    what: 'each local module call in `[for gjI in range(0, 1): {…}]`, its uses `[0]`',
    apply: (sides) => mapBicepTrees(sides, (files) => mapTemplates(files, (t) => looped(t, MODULE_DECL, 1))),
  },
  {
    id: 'bicep-union-properties',
    what: "each AKS pool resource's `properties` a `union({…}, {…})` of its entries halved",
    apply: (sides) => mapBicepTrees(sides, (files) => mapTemplates(files, unionProperties)),
  },
  {
    id: 'bicep-entry-deeper',
    what: 'each entry template and its `.bicepparam` two folders below the modules they call',
    apply: (sides) => mapBicepTrees(sides, entriesDeeper),
  },
];
