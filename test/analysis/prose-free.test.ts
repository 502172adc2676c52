import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * analysis/ returns codes, numbers and references; report/ writes every sentence. This walks the
 * string literals and template strings of src/analysis and fails on any that reads like English:
 * three or more words of letters.
 */
const ROOT = join(import.meta.dirname, '../../src/analysis');

/**
 * Files whose sentences have not moved to report/ yet; none now. Listed, so the list only
 * shrinks: a file here that has become prose-free fails the test.
 */
const PENDING = new Set<string>([]);

/** Strings that have words but are data, each with why. */
const NOT_PROSE: readonly { file: string; text: string }[] = [
  // A catalog field's change, `field: before → after`, as RaisedDemand.fields holds them.
  { file: 'catalog-demand.ts', text: 'interruptible: true → false' },
];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The text of a literal, `${}` for each substitution. */
function textOf(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => `\${}${s.literal.text}`).join('');
  return null;
}

/** Three or more words of two letters or more: a sentence, not an identifier, a label or PromQL. */
function looksLikeProse(text: string): boolean {
  return text.split(/\s+/).filter((w) => /[A-Za-z]{2,}/.test(w)).length >= 3;
}

/**
 * An Evidence `ref` may describe the computation in a few words (docs/json.md): it is a
 * reference the report quotes, not a sentence it writes.
 */
function isEvidenceRef(node: ts.Node): boolean {
  let at: ts.Node = node;
  while (ts.isBinaryExpression(at.parent) || ts.isConditionalExpression(at.parent) || ts.isParenthesizedExpression(at.parent))
    at = at.parent;
  const p = at.parent;
  return ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'ref';
}

function proseIn(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    const text = textOf(node);
    if (text !== null && looksLikeProse(text) && !isEvidenceRef(node)) {
      const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
      found.push(`${file}:${line + 1}: ${text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('analysis writes no prose', () => {
  const files = walk(ROOT).map((f) => relative(ROOT, f).split('\\').join('/'));

  it.each(files.filter((f) => !PENDING.has(f)))('%s returns data, not sentences', (file) => {
    const allowed = NOT_PROSE.filter((a) => a.file === file).map((a) => a.text);
    const prose = proseIn(file, readFileSync(join(ROOT, file), 'utf8')).filter((p) => !allowed.some((a) => p.endsWith(`: ${a}`)));
    expect(prose).toEqual([]);
  });

  it.each([...PENDING])('%s is still listed as pending only while it has sentences', (file) => {
    expect(proseIn(file, readFileSync(join(ROOT, file), 'utf8')).length).toBeGreaterThan(0);
  });

  it('tells a sentence from data', () => {
    expect(looksLikeProse('the ${} GPUs already there meet the need (${})')).toBe(true);
    expect(proseIn('x.ts', 'const r = `lowers capacity to ${n} GPUs`;')).toHaveLength(1);
    expect(proseIn('x.ts', "const c = { code: 'need-below-request', ref: 'allocation aggregate=namespace ' + ns };")).toEqual([]);
    expect(proseIn('x.ts', "const id = `ksm.gpu-requests:workload:${name}`; const q = 'sum(rate(x[5m]))';")).toEqual([]);
  });
});
