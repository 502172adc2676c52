import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dirsIn } from '../../src/cli/tree-readers/dir-reader.js';
import { detectChanges } from '../../src/detect/detect-changes.js';
import type { DetectedChanges } from '../../src/detect/detect-changes.js';
import type { ChangeSet, TreeReader } from '../../src/domain/index.js';

/** Public files copied from other repositories (see fixtures/real/SOURCES.md). */
export const REAL_ROOT = fileURLToPath(new URL('./fixtures/real', import.meta.url));

export type Tree = Record<string, string>;

/**
 * Fixture files already read, by path under the fixture root. Hundreds of tests read the same
 * few hundred files (every real case, every rewrite of it): each file is read from disk once per
 * test worker. Files are not written while the suite runs; callers get copies of the trees.
 */
const readCache = new Map<string, string>();
const dirCache = new Map<string, readonly string[]>();

function readFixture(rel: string): string {
  let text = readCache.get(rel);
  if (text === undefined) {
    text = readFileSync(path.join(REAL_ROOT, rel), 'utf8');
    readCache.set(rel, text);
  }
  return text;
}

/** The names of a fixture directory, sorted; null for a file. */
function fixtureDir(rel: string): readonly string[] | null {
  const known = dirCache.get(rel);
  if (known !== undefined) return known;
  if (readCache.has(rel)) return null;
  const full = path.join(REAL_ROOT, rel);
  if (!statSync(full).isDirectory()) return null;
  const names = readdirSync(full).sort();
  dirCache.set(rel, names);
  return names;
}

/** A fixture file, or every file of a fixture directory (a Terraform module, its local modules too), by repository path. */
export function loadReal(target: string): Tree {
  const names = fixtureDir(target);
  if (names === null) return { [target]: readFixture(target) };
  const tree: Tree = {};
  for (const name of names) Object.assign(tree, loadReal(`${target}/${name}`));
  return tree;
}

const allReal = new Map<'all', Readonly<Tree>>();

/** Every fixture file (SOURCES.md and LICENSES/ aside), by path under the fixture root. */
export function loadAllReal(): Tree {
  const known = allReal.get('all') ?? readAllReal('');
  allReal.set('all', known);
  return { ...known };
}

function readAllReal(dir: string): Tree {
  const tree: Tree = {};
  for (const entry of readdirSync(path.join(REAL_ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    // The licence texts of the sources are not fixtures.
    if (entry.name === 'LICENSES') continue;
    if (entry.isDirectory()) Object.assign(tree, readAllReal(rel));
    else if (entry.name !== 'SOURCES.md') tree[rel] = readFixture(rel);
  }
  return tree;
}

/** One text edit of a PR: in the file whose path ends with `file`, `from` becomes `to` (once). */
export type Edit = [file: string, from: string | RegExp, to: string];

export function edited(tree: Tree, edits: readonly Edit[]): Tree {
  const out = { ...tree };
  for (const [file, from, to] of edits) {
    const key = Object.keys(out).find((k) => k.endsWith(file));
    if (key === undefined) throw new Error(`no fixture file ends with ${file}`);
    const before = out[key] ?? '';
    const after = before.replace(from, to);
    if (after === before) throw new Error(`edit ${String(from)} does not apply to ${key}`);
    out[key] = after;
  }
  return out;
}

function reader(label: string, tree: Tree, listsDirs: boolean): TreeReader {
  const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  return {
    label,
    read: (p) => Promise.resolve(Object.hasOwn(tree, p) ? (tree[p] ?? null) : null),
    // Listing lets the Terraform reader take a changed file's siblings (variables, tfvars).
    list: (dir) => Promise.resolve(Object.keys(tree).filter((p) => dirOf(p) === dir)),
    ...(listsDirs ? { dirs: (dir: string) => Promise.resolve(dirsIn(Object.keys(tree), dir)) } : {}),
  };
}

/**
 * Runs detection the way a review does: only the paths whose text differs are changed. The
 * readers list directories as the CLI's and the App's do, unless `listsDirs` is false; `repositories`
 * are the repository's own names, as the CLI takes them from git's remotes.
 */
export function detectPr(base: Tree, head: Tree, listsDirs = true, repositories?: readonly string[]): Promise<DetectedChanges> {
  const changed = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((p) => base[p] !== head[p]).sort();
  const set: ChangeSet = {
    base: reader('base', base, listsDirs),
    head: reader('head', head, listsDirs),
    changedPaths: () => Promise.resolve(changed),
    ...(repositories ? { repositories } : {}),
  };
  return detectChanges(set);
}

/** [kind, name, before, after, model, file, line] of each change. */
export function changeRows(r: DetectedChanges): (string | number | null)[][] {
  return r.changes.map((c) => [c.kind, c.name, c.gpusBefore, c.gpusAfter, c.gpuModel, c.file, c.line]);
}

/** 1-based line of the first line of `text` containing `needle`. */
export function lineIn(text: string | undefined, needle: string): number {
  const lines = (text ?? '').split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`${needle} not in fixture`);
  return i + 1;
}
