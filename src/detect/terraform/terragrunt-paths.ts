import path from 'node:path';
import type { TreeReader } from '../../domain/index.js';
import { dirOf } from '../kit/paths.js';
import { evalExpr, Unresolved } from './expr-eval.js';
import type { Scope } from './expr-eval.js';
import { ExprSyntaxError, parseTemplate } from './expr-parse.js';
import type { Expr } from './expr-parse.js';

/** Where paths are resolved: the including unit's folder, read at one side. */
export interface PathFs {
  dir: string;
  reader: TreeReader;
  /** The included file whose expressions are being evaluated, for the functions that answer from it. */
  include?: string;
}

type PathResult = { path: string } | { culprit: string };

/** A path argument (`path = "${find_in_parent_folders()}"`) as a repository path, or what stops it. */
export async function evalPath(raw: unknown, fs: PathFs, scope: Scope): Promise<PathResult> {
  if (typeof raw !== 'string') return { culprit: 'a path that is not a string' };
  let parts: (string | Expr)[];
  try {
    parts = parseTemplate(raw);
  } catch (err) {
    if (err instanceof ExprSyntaxError) return { culprit: `an expression this tool cannot read (${err.message})` };
    throw err;
  }
  const v = await evalPathExpr({ t: 'tpl', parts }, fs, scope);
  return 'culprit' in v ? v : { path: normal(v.path, fs.dir) };
}

/** Terragrunt's path functions, as they answer for a unit at `fs.dir`; paths are repository paths. */
export async function evalPathExpr(e: Expr, fs: PathFs, scope: Scope): Promise<PathResult> {
  if (e.t === 'tpl') {
    let out = '';
    for (const p of e.parts) {
      if (typeof p === 'string') out += p;
      else {
        const v = await evalPathExpr(p, fs, scope);
        if ('culprit' in v) return v;
        out += v.path;
      }
    }
    return { path: out };
  }
  if (e.t === 'call') {
    switch (e.name) {
      case 'find_in_parent_folders':
        return findInParents(e, fs, scope);
      case 'get_terragrunt_dir':
      case 'get_original_terragrunt_dir':
        return { path: `/${fs.dir}` };
      case 'get_repo_root':
        return { path: '/' };
      // In an included file: its own folder, and the way between it and the unit that includes it.
      case 'get_parent_terragrunt_dir':
        return fs.include === undefined
          ? { culprit: 'get_parent_terragrunt_dir() outside an included file' }
          : { path: `/${dirOf(fs.include)}` };
      case 'path_relative_to_include':
        return fs.include === undefined
          ? { culprit: 'path_relative_to_include() outside an included file' }
          : { path: path.posix.relative(dirOf(fs.include), fs.dir) || '.' };
      case 'path_relative_from_include':
        return fs.include === undefined
          ? { culprit: 'path_relative_from_include() outside an included file' }
          : { path: path.posix.relative(fs.dir, dirOf(fs.include)) || '.' };
      case 'get_path_to_repo_root':
        return {
          path:
            fs.dir === ''
              ? '.'
              : fs.dir
                  .split('/')
                  .map(() => '..')
                  .join('/'),
        };
      case 'dirname': {
        const arg = e.args[0];
        if (arg === undefined) return { culprit: 'dirname() with no argument' };
        const v = await evalPathExpr(arg, fs, scope);
        return 'culprit' in v ? v : { path: path.posix.dirname(v.path) };
      }
    }
  }
  try {
    const v = evalExpr(e, scope);
    return typeof v === 'string' ? { path: v } : { culprit: 'a path that is not a string' };
  } catch (err) {
    if (err instanceof Unresolved) return { culprit: err.culprit };
    throw err;
  }
}

/** The first `name` (default terragrunt.hcl) in the folders above the unit's, as Terragrunt searches. */
async function findInParents(e: Extract<Expr, { t: 'call' }>, fs: PathFs, scope: Scope): Promise<PathResult> {
  let name = 'terragrunt.hcl';
  const arg = e.args[0];
  if (arg !== undefined) {
    const v = await evalPathExpr(arg, fs, scope);
    if ('culprit' in v) return v;
    name = v.path;
  }
  let dir = fs.dir;
  while (dir !== '') {
    dir = dirOf(dir);
    const candidate = normal(name, dir);
    // Terragrunt answers with an absolute path; a leading `/` is the repository root here.
    if ((await fs.reader.read(candidate)) !== null) return { path: `/${candidate}` };
  }
  const fallback = e.args[1];
  if (fallback !== undefined) return evalPathExpr(fallback, fs, scope);
  return { culprit: `find_in_parent_folders("${name}"), which finds no ${name} above ${fs.dir || 'the repository root'}` };
}

/** A path as a repository path: `/…` from the repository root, others from `dir`, `..` folded. */
export function normal(p: string, dir: string): string {
  const joined = p.startsWith('/') ? p.replace(/^\/+/, '') : path.posix.join(dir, p);
  const n = path.posix.normalize(joined);
  return n === '.' ? '' : n.replace(/^\.\//, '');
}
