import { GpuJustifyError } from '../../domain/errors.js';
import { repositoryName } from '../../domain/index.js';
import { fail, ok, type Result } from '../../domain/result.js';
import type { TreeReader } from '../../domain/index.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { renderGoString } from './gotmpl/render.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The folders and files of the tree a parameter set was made from: the Application is there only while they are. */
export const ELEMENT: unique symbol = Symbol('element');

/** One parameter set a generator makes: flat `a.b` keys, or (goTemplate) the objects as they are. */
export type Params = Obj & { [ELEMENT]?: string[] };

/** What the generators of an ApplicationSet read from the repository. */
export interface GeneratorIo {
  read: TreeReader['read'];
  list: (dir: string) => Promise<string[]>;
  dirs?: (dir: string) => Promise<string[]>;
  repositories?: readonly string[];
}

/** Parameter sets, or why the generators' output cannot be worked out from the repository. */
export type Generated = Result<Params[], string>;

/**
 * Bounds on one ApplicationSet: the Applications it may make and the folders its Git generators
 * walk. Past either, its Applications are not worked out, and it says so.
 */
export const MAX_APPS = 256;
const MAX_WALK = 1000;

// Generators whose elements only the cluster or an outside service knows.
const OUTSIDE = ['clusters', 'clusterDecisionResource', 'scmProvider', 'pullRequest', 'plugin'];

/** Argo CD's `basenameNormalized`: what a Kubernetes name cannot hold becomes `-`. */
const normalized = (s: string): string => s.replace(/[^a-zA-Z0-9.-]+/g, '-');

/**
 * The parameter sets of one generator, as Argo CD's ApplicationSet controller makes them from the
 * repository alone: `list`, `git` (directories and files of this repository), and `matrix` /
 * `merge` of those.
 */
export async function generate(gen: unknown, goTemplate: boolean, io: GeneratorIo, depth = 0): Promise<Generated> {
  if (!isObj(gen)) return fail('a generator that is not a mapping');
  const outside = OUTSIDE.find((k) => k in gen);
  if (outside !== undefined) return fail(`the ${outside} generator lists what only the cluster or an outside service knows`);
  if (Object.values(gen).some((v) => isObj(v) && isObj(v.template)) || gen.selector !== undefined) {
    return fail('a generator with its own template or a selector is not worked out');
  }
  if (depth > 2) return fail('generators nested more than two deep');
  if (isObj(gen.list)) return listParams(gen.list, goTemplate);
  if (isObj(gen.git)) return gitParams(gen.git, goTemplate, io);
  if (isObj(gen.matrix)) return matrixParams(gen.matrix, goTemplate, io, depth);
  if (isObj(gen.merge)) return mergeParams(gen.merge, goTemplate, io, depth);
  return fail(`the generator ${Object.keys(gen).join(', ') || '(empty)'} is not known`);
}

function listParams(list: Obj, goTemplate: boolean): Generated {
  if (list.elementsYaml !== undefined) return fail('list elementsYaml is not worked out');
  const elements = Array.isArray(list.elements) ? list.elements : [];
  if (elements.length > MAX_APPS) return fail(`more than ${MAX_APPS} list elements`);
  const params: Params[] = [];
  for (const e of elements) {
    if (!isObj(e)) return fail('a list element that is not a mapping');
    params.push(goTemplate ? e : flatten(e));
  }
  return ok(params);
}

/** Without goTemplate, parameters are text under dotted keys (`cluster.name`). */
function flatten(value: Obj, prefix = '', out: Params = {}): Params {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix === '' ? k : `${prefix}.${k}`;
    if (isObj(v)) flatten(v, key, out);
    else out[key] = typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v);
  }
  return out;
}

/** The parameters Argo CD gives a folder or file path found by a Git generator. */
function pathParams(dir: string, file: string | null, goTemplate: boolean, prefix: string): Params {
  const segments = (file ?? dir).split('/').filter((s) => s !== '');
  const basename = dir.split('/').at(-1) ?? '';
  const filename = file === null ? null : (file.split('/').at(-1) ?? '');
  if (goTemplate) {
    const path: Obj = { path: dir, basename, basenameNormalized: normalized(basename), segments };
    if (filename !== null) Object.assign(path, { filename, filenameNormalized: normalized(filename) });
    return prefix === '' ? { path } : { [prefix]: { path } };
  }
  const p = prefix === '' ? 'path' : `${prefix}.path`;
  const out: Params = { [p]: dir, [`${p}.path`]: dir, [`${p}.basename`]: basename, [`${p}.basenameNormalized`]: normalized(basename) };
  segments.forEach((s, i) => (out[`${p}[${String(i)}]`] = s));
  if (filename !== null) Object.assign(out, { [`${p}.filename`]: filename, [`${p}.filenameNormalized`]: normalized(filename) });
  return out;
}

async function gitParams(git: Obj, goTemplate: boolean, io: GeneratorIo): Promise<Generated> {
  const url = typeof git.repoURL === 'string' ? git.repoURL : '';
  const own = io.repositories ?? [];
  const repo = repositoryName(url);
  if (own.length > 0 && (repo === null || !own.includes(repo))) return fail(`the git generator reads ${url || 'another repository'}`);
  if (git.values !== undefined) return fail('git generator values are not worked out');
  const prefix = typeof git.pathParamPrefix === 'string' ? git.pathParamPrefix : '';
  const params: Params[] = [];
  if (Array.isArray(git.directories)) {
    if (!io.dirs) return fail("the repository's folders cannot be listed");
    const items = git.directories.filter(isObj);
    const include = items.filter((d) => d.exclude !== true).map((d) => (typeof d.path === 'string' ? d.path : ''));
    const exclude = items.filter((d) => d.exclude === true).map((d) => globRegex(typeof d.path === 'string' ? d.path : '', false));
    const found = new Set<string>();
    for (const pattern of include) {
      const walked = await walk(pattern, false, io, true);
      if (walked === null) return fail(`the folders of ${pattern} are more than ${MAX_WALK}`);
      for (const d of walked) if (!exclude.some((re) => re.test(d)) && (await present(d, io))) found.add(d);
    }
    for (const d of [...found].sort()) params.push({ ...pathParams(d, null, goTemplate, prefix), [ELEMENT]: [d] });
  }
  if (Array.isArray(git.files)) {
    if (!io.dirs) return fail("the repository's folders cannot be listed");
    for (const item of git.files.filter(isObj)) {
      const pattern = typeof item.path === 'string' ? item.path : '';
      const walked = await walk(pattern, true, io, false);
      if (walked === null) return fail(`the folders of ${pattern} are more than ${MAX_WALK}`);
      for (const file of walked) {
        const text = await io.read(file);
        // Listed from the other side of the change: not a file at this one.
        if (text === null) continue;
        const value = yamlValue(text);
        const docs = Array.isArray(value) ? value : [value];
        for (const doc of docs) {
          if (!isObj(doc)) return fail(`${file} is not a mapping of parameters`);
          const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
          params.push({ ...(goTemplate ? doc : flatten(doc)), ...pathParams(dir, file, goTemplate, prefix), [ELEMENT]: [file] });
        }
      }
    }
  }
  return params.length > MAX_APPS ? fail(`more than ${MAX_APPS} parameter sets`) : ok(params);
}

/**
 * A folder of the listing is there at this side unless every file directly in it reads as absent
 * (the folder is added by the change: the listing is of the head side).
 */
export async function present(dir: string, io: Pick<GeneratorIo, 'read' | 'list'>): Promise<boolean> {
  const files = await io.list(dir);
  for (const f of files) if ((await io.read(f)) !== null) return true;
  return files.length === 0;
}

/**
 * A glob as Go's `path.Match` reads it (`*` within one folder), or with `**` across folders as the
 * file generator reads it.
 */
function globRegex(pattern: string, doublestar: boolean): RegExp {
  const p = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i] ?? '';
    if (c === '*' && doublestar && p[i + 1] === '*') {
      const slash = p[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = p.indexOf(']', i + 1);
      if (end < 0) return /$^/;
      const body = p
        .slice(i + 1, end)
        .replace(/^[!^]/, '^')
        .replaceAll('\\', '\\\\');
      re += `[${body}]`;
      i = end;
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * The folders (or files) of the tree a pattern matches, walking only under its fixed start and, for a
 * pattern without `**`, no deeper than it reaches. Null past the walk's bound.
 */
async function walk(pattern: string, doublestar: boolean, io: GeneratorIo, wantDirs: boolean): Promise<string[] | null> {
  const clean = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  const segments = clean.split('/');
  const fixed: string[] = [];
  for (const s of segments) {
    if (/[*?[]/.test(s)) break;
    fixed.push(s);
  }
  const re = globRegex(clean, doublestar);
  const deep = doublestar && clean.includes('**');
  const whole = fixed.length === segments.length;
  const start = (wantDirs ? fixed.slice(0, whole ? -1 : fixed.length) : fixed.slice(0, Math.min(fixed.length, segments.length - 1))).join(
    '/',
  );
  const out: string[] = [];
  const queue: { dir: string; depth: number }[] = [{ dir: start, depth: start === '' ? 0 : start.split('/').length }];
  let seen = 0;
  const dirs = io.dirs;
  if (!dirs) return null;
  while (queue.length > 0) {
    const { dir, depth } = queue.shift() as { dir: string; depth: number };
    if (++seen > MAX_WALK) return null;
    if (!wantDirs) for (const f of await io.list(dir)) if (re.test(f)) out.push(f);
    if (!deep && depth >= segments.length) continue;
    for (const d of await dirs(dir)) {
      // Argo CD leaves out folders whose name starts with a dot.
      if ((d.split('/').at(-1) ?? '').startsWith('.')) continue;
      if (wantDirs && re.test(d)) out.push(d);
      queue.push({ dir: d, depth: depth + 1 });
    }
  }
  return out.sort();
}

/** Each set of the first generator with each of the second, made with the first's parameters. */
async function matrixParams(matrix: Obj, goTemplate: boolean, io: GeneratorIo, depth: number): Promise<Generated> {
  const gens = Array.isArray(matrix.generators) ? matrix.generators : [];
  if (gens.length !== 2) return fail('a matrix generator needs exactly two generators');
  const first = await generate(gens[0], goTemplate, io, depth + 1);
  if (!first.ok) return first;
  const params: Params[] = [];
  for (const a of first.value) {
    let made: unknown;
    try {
      made = substitute(gens[1], a, goTemplate);
    } catch (e) {
      if (e instanceof TemplateFieldError) return fail(`the matrix's second generator: ${e.message}`);
      throw e;
    }
    const second = await generate(made, goTemplate, io, depth + 1);
    if (!second.ok) return second;
    for (const b of second.value) params.push({ ...a, ...b, [ELEMENT]: [...(a[ELEMENT] ?? []), ...(b[ELEMENT] ?? [])] });
    if (params.length > MAX_APPS) return fail(`more than ${MAX_APPS} parameter sets`);
  }
  return ok(params);
}

/** The first generator's sets, each overridden by the sets of the others whose `mergeKeys` match. */
async function mergeParams(merge: Obj, goTemplate: boolean, io: GeneratorIo, depth: number): Promise<Generated> {
  const gens = Array.isArray(merge.generators) ? merge.generators : [];
  const keys = (Array.isArray(merge.mergeKeys) ? merge.mergeKeys : []).map(String);
  if (gens.length === 0 || keys.length === 0) return fail('a merge generator needs generators and mergeKeys');
  const all: Params[][] = [];
  for (const g of gens) {
    const r = await generate(g, goTemplate, io, depth + 1);
    if (!r.ok) return r;
    all.push(r.value);
  }
  const keyOf = (p: Params) => JSON.stringify(keys.map((k) => lookup(p, k, goTemplate)));
  const base = (all[0] ?? []).map((p) => ({ ...p }));
  for (const more of all.slice(1)) {
    for (const p of more) for (const b of base) if (keyOf(b) === keyOf(p)) Object.assign(b, p);
  }
  return ok(base);
}

function lookup(p: Params, key: string, goTemplate: boolean): unknown {
  if (!goTemplate) return p[key];
  let at: unknown = p;
  for (const step of key.split('.')) at = isObj(at) ? at[step] : undefined;
  return at;
}

/** A template field that does not render: the ApplicationSet's Applications are then not worked out. */
export class TemplateFieldError extends GpuJustifyError {
  override readonly kind = 'appset-template-field';
}

/** Every string of a value with its `{{…}}` filled from the parameters, as Argo CD fills them. */
export function substitute(value: unknown, params: Params, goTemplate: boolean): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return value;
    if (goTemplate) {
      const out = renderGoString(value, params);
      if (out === null) throw new TemplateFieldError(`${value} does not render`);
      return out;
    }
    // fasttemplate: a known parameter is replaced, an unknown tag left as it is.
    return value.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (tag, key: string) => (typeof params[key] === 'string' ? params[key] : tag));
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, params, goTemplate));
  if (isObj(value)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value)) out[k] = substitute(v, params, goTemplate);
    return out;
  }
  return value;
}
