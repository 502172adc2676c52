import type { Node } from 'web-tree-sitter';
import type { AccountedLines } from '../parser.js';
import { lineCount } from '../kit/lines.js';

const DECLARATIONS = new Set(['parameter_declaration', 'variable_declaration']);
// Parameters and variables reading each other: grown this many rounds at most.
const MAX_ROUNDS = 16;

interface Span {
  from: number;
  to: number;
}

const spanOf = (n: Node): Span => ({ from: n.startPosition.row + 1, to: n.endPosition.row + 1 });
const within = (spans: readonly Span[], line: number): boolean => spans.some((s) => s.from <= line && line <= s.to);

/**
 * What reading a template accounts for (the floor under every format, parser.ts): the declarations
 * the reader read whole (clusters, agent pools, module calls), and each parameter or variable whose
 * every use lies in what is accounted for (or that nothing uses). A parameter read by a resource the
 * reader does not read (a scale set of GPU VMs) stays unaccounted: what its GPU values size is not followed.
 */
export function templateAccounting(file: string, root: Node, read: readonly Node[]): { accounted: AccountedLines[]; params: Set<string> } {
  const spans: Span[] = read.map(spanOf);
  const declared = new Map<string, { node: Node; param: boolean }>();
  for (const decl of root.namedChildren) {
    if (decl === null || !DECLARATIONS.has(decl.type)) continue;
    const name = decl.namedChildren.find((c) => c !== null && c.type === 'identifier');
    if (name) declared.set(name.text, { node: decl, param: decl.type === 'parameter_declaration' });
  }
  const uses = new Map<string, number[]>();
  const walk = (n: Node): void => {
    if (n.type === 'identifier' && declared.has(n.text) && !isName(n))
      uses.set(n.text, [...(uses.get(n.text) ?? []), n.startPosition.row + 1]);
    for (const c of n.namedChildren) if (c !== null) walk(c);
  };
  walk(root);
  const accounted = new Set<string>();
  for (let round = 0, grew = true; grew && round < MAX_ROUNDS; round++) {
    grew = false;
    const covered = [...spans, ...[...accounted].map((n) => spanOf((declared.get(n) as { node: Node }).node))];
    for (const [name, { node }] of declared) {
      if (accounted.has(name)) continue;
      const own = spanOf(node);
      if ((uses.get(name) ?? []).every((line) => within(covered, line) || within([own], line))) {
        accounted.add(name);
        grew = true;
      }
    }
  }
  const lines = [...spans, ...[...accounted].map((n) => spanOf((declared.get(n) as { node: Node }).node))];
  return {
    accounted: lines.map((s) => ({ file, from: s.from, to: s.to })),
    params: new Set([...accounted].filter((n) => declared.get(n)?.param)),
  };
}

/** An identifier that names rather than reads: a declaration's own name, an object's key, a loop's variable. */
function isName(n: Node): boolean {
  const parent = n.parent;
  if (parent === null) return false;
  if (parent.type === 'object_property' || DECLARATIONS.has(parent.type) || parent.type.endsWith('_declaration'))
    return parent.namedChildren[0]?.id === n.id;
  if (parent.type === 'for_statement') return parent.namedChildren[0]?.id === n.id;
  return parent.type === 'for_loop_parameters' || parent.type === 'loop_variable' || parent.type === 'loop_enumerator';
}

/** The lines of a parameter file's `param x = …` statements, each up to the next statement (the last to the file's last line). */
export function paramLines(file: string, text: string, accounted: (name: string) => boolean): AccountedLines[] {
  const lines = text.split('\n');
  const last = lineCount(text);
  const starts: { name: string; line: number }[] = [];
  lines.forEach((l, i) => {
    const m = /^\s*param\s+([A-Za-z_]\w*)\s*=/.exec(l);
    if (m?.[1] !== undefined) starts.push({ name: m[1], line: i + 1 });
  });
  return starts.flatMap((s, i) =>
    accounted(s.name) ? [{ file, from: s.line, to: Math.max(s.line, (starts[i + 1]?.line ?? last + 1) - 1) }] : [],
  );
}
