import { diagnostic } from '../../domain/index.js';
import type { Diagnostic, TreeReader } from '../../domain/index.js';
import type { Coverage, ParseOutcome, SetParseResult, Unfollowed } from '../parser.js';
import { changedKeys, valueAt } from '../kit/changed-keys.js';
import { namesGpu, sizesCapacity } from '../kit/gpu-signal.js';
import { notFollowedInputs } from '../input-files.js';
import { dirOf } from '../kit/paths.js';
import { chooseObject } from './chosen-object.js';
import { evaluate } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';
import { ExprSyntaxError, parseTemplate } from './expr-parse.js';
import type { Expr } from './expr-parse.js';
import { parseHcl } from './hcl.js';
import { asRecord, moduleScope } from './module-scope.js';
import { isTerragruntPath } from './terragrunt.js';
import { readTerragruntUnit } from './terraform-parser.js';
import { evalPath, evalPathExpr, normal } from './terragrunt-paths.js';
import { readModuleCall } from './module-reading.js';
import { ownSource } from './module-source.js';
import type { PathFs } from './terragrunt-paths.js';

/** The readers of the two sides, and listings to find the units below a changed parent. */
export interface TerragruntIo {
  base: TreeReader;
  head: TreeReader;
  list(dir: string): Promise<string[]>;
  dirs?: (dir: string) => Promise<string[]>;
  /** The repository's own names, for module sources that are its URL (module-source.ts). */
  repositories?: readonly string[];
}

type Side = Required<SetParseResult> & { notFollowed: Unfollowed[] };

export interface FollowedTerragrunt {
  base: Side;
  head: Side;
  /** Units read with what they include: their own (single-file) readings are replaced. */
  units: string[];
  /** Changed parent files whose inputs were followed into every unit that includes them. */
  followed: string[];
  /** Folders of modules read through a unit: their own readings would count the pools twice. */
  modules: string[];
}

// A live repository has one folder per unit and environment: enough for a large one, bounded still.
const MAX_DIRS = 400;
const MAX_UNITS = 100;

/**
 * Terragrunt units read with what they include (`include` blocks, `read_terragrunt_config`
 * locals), as Terragrunt merges them: the parent's `inputs` under the unit's (shallow by
 * default, `merge_strategy = "deep"` recursively, `"no_merge"` not at all), the parent's
 * `terraform { source }` when the unit names none, and `include.<label>.inputs` / `.locals`
 * when the block says `expose = true`. Changed units are read so; a changed parent (a root.hcl
 * many units include) is followed into every unit below its folder whose chain reads it.
 */
export async function followTerragrunt(changed: readonly string[], io: TerragruntIo): Promise<FollowedTerragrunt> {
  const empty = (): Side => ({ decls: [], diagnostics: [], unresolved: [], notFollowed: [], supersedes: [], replaces: [] });
  const result: FollowedTerragrunt = { base: empty(), head: empty(), units: [], followed: [], modules: [] };
  // Each parent followed, with the units that read it: what cannot be followed in them is the parent's too.
  const parents = new Map<string, string[]>();
  const units = new Set<string>();
  const changedSet = new Set(changed);
  for (const p of changed.filter(isTerragruntPath)) {
    const texts = [await io.base.read(p), await io.head.read(p)];
    if (texts.some((t) => t !== null && (INCLUDES.test(t) || MODULE_HERE.test(t) || namesOwnModule(t, io.repositories ?? []))))
      units.add(p);
  }
  for (const parent of changed.filter((p) => p.endsWith('.hcl'))) {
    const texts = [await io.base.read(parent), await io.head.read(parent)];
    if (!texts.some((t) => t !== null && /^\s*(inputs|locals|terraform)\b/m.test(t))) continue;
    // Includes do not nest: a unit that includes is no one's parent.
    if (isTerragruntPath(parent) && texts.some((t) => t !== null && /^\s*include\b/m.test(t))) continue;
    // Folders are searched (an API call each, in the App) only for a change that could size GPUs.
    if (!sizingChange(parent, texts[0] ?? null, texts[1] ?? null)) continue;
    const found = await unitsBelow(dirOf(dirOf(parent)), io);
    let complete = !found.truncated;
    const including: string[] = [];
    for (const unit of found.units) {
      if (unit === parent) continue;
      for (const side of ['base', 'head'] as const) {
        const read = await readUnit(io[side], unit);
        if (read === null) continue;
        if (read.unknownInclude || read.invalid) complete = false;
        if (read.sources.includes(parent) && !including.includes(unit)) including.push(unit);
      }
    }
    for (const u of including) units.add(u);
    // Followed only when every unit that may include it was read.
    if (complete && including.length > 0) {
      result.followed.push(parent);
      parents.set(parent, including);
    } else if (!complete) {
      // The check of parent files (input-files.ts) already flags one whose inputs name GPUs.
      if ((await notFollowedInputs([parent], io)).length === 0) {
        result.head.notFollowed.push({ file: parent, line: null, reason: 'terragrunt-include', subject: parent });
      }
      result.head.diagnostics.push(
        diagnostic(
          parent,
          null,
          'info',
          `${including.length === 0 ? 'no Terragrunt unit was found to include it' : `read into the ${including.length} Terragrunt unit${including.length === 1 ? '' : 's'} found to include it`}; ${
            found.truncated
              ? `more folders lie below it than are searched (${MAX_DIRS}), or they cannot be listed`
              : 'some units below it have an include that could not be resolved'
          }, so units that include it may be missed`,
        ),
      );
    }
  }
  for (const unit of [...units].sort()) {
    let claimed = false;
    for (const side of ['base', 'head'] as const) {
      const read = await readUnit(io[side], unit);
      if (read === null || read.invalid) continue;
      const out = result[side];
      if (read.unknownInclude) {
        // What it includes is unknown: its own config is still read alone (terraform-parser.ts).
        if (side === 'head' && changedSet.has(unit)) {
          out.diagnostics.push(diagnostic(unit, read.unknownInclude.line, 'warning', read.unknownInclude.message));
          out.notFollowed.push({
            file: unit,
            line: read.unknownInclude.line,
            reason: 'terragrunt-include',
            subject: read.unknownInclude.subject,
            needs: read.unknownInclude.needs,
          });
        }
        continue;
      }
      claimed = true;
      const outcome = (await throughModule(io, side, unit, read, result.modules)) ?? read.outcome;
      out.decls.push(...outcome.decls);
      out.unresolved.push(...(outcome.unresolved ?? []));
      out.diagnostics.push(...outcome.diagnostics);
      const notes = outcome.notFollowed ?? [];
      out.notFollowed.push(...notes);
      for (const [parent, readers] of parents) {
        if (readers.includes(unit)) out.notFollowed.push(...notes.map((n) => ({ ...n, file: parent, line: null })));
      }
    }
    if (claimed) result.units.push(unit);
  }
  return result;
}

// A unit's module in this repository: a relative path, or one from a Terragrunt path function.
const MODULE_HERE = /\bsource\s*=\s*"(?:\.\.?\/|\$\{)/;

const SOURCES = /\bsource\s*=\s*"([^"]*)"/g;

/** A unit whose source is this repository's own URL (`github.com/acme/infra//modules/x?ref=v1`): its module is in the tree. */
function namesOwnModule(text: string, repositories: readonly string[]): boolean {
  return repositories.length > 0 && [...text.matchAll(SOURCES)].some((m) => ownSource(m[1] ?? '', repositories) !== null);
}

/** The folder of a unit's module when it is in this repository (a relative path, the repository root's, or its own URL). */
function moduleDirOf(source: string, unitDir: string, repositories: readonly string[]): string | null {
  if (source.startsWith('/') || source.startsWith('./') || source.startsWith('../')) {
    const dir = normal(source.replace(/[?#].*$/, ''), unitDir);
    return dir === '..' || dir.startsWith('../') ? null : dir;
  }
  return ownSource(source, repositories)?.dir ?? null;
}

/**
 * A unit whose module is in this repository, read through it: the module's files given the unit's
 * merged inputs, as Terragrunt runs it. Null when the module is elsewhere or its folder holds no
 * Terraform (the unit is then read as a call of a module not seen).
 */
async function throughModule(
  io: TerragruntIo,
  side: 'base' | 'head',
  unit: string,
  read: UnitRead,
  modules: string[],
): Promise<ParseOutcome | null> {
  if (read.call === undefined) return null;
  const dir = moduleDirOf(read.call.source, dirOf(unit), io.repositories ?? []);
  if (dir === null) return null;
  const found = await readModuleCall(io, side, dir, read.call.inputs, read.call.scope);
  if (found === null) return null;
  if (!modules.includes(dir)) modules.push(dir);
  const line = read.call.line;
  const why = `module ${dir === '' ? 'at the repository root' : dir}`;
  return {
    decls: found.decls.map((d) => ({ ...d, file: unit, line, parts: d.parts.map((p) => ({ ...p, line })) })),
    unresolved: found.unresolved.map((u) => ({ ...u, file: unit, line })),
    diagnostics: found.diagnostics
      .filter((d) => d.severity !== 'info')
      .map((d) => ({ ...d, file: unit, line, message: `${why}: ${d.message}` })),
    notFollowed: found.notFollowed.map((n) => ({ ...n, file: unit, line })),
  };
}

const INCLUDES = /^\s*include\b|read_terragrunt_config\s*\(/m;

/**
 * A change to what a parent hands its units (inputs, locals, the module source) that could size
 * GPU capacity: a key that sizes or picks machines, or a value that names a GPU. A parent's inputs
 * need not name a GPU themselves (`max_size = 5` for units on GPU instances).
 */
function sizingChange(path: string, base: string | null, head: string | null): boolean {
  const pick = (text: string | null): Record<string, unknown> | null => {
    if (text === null) return {};
    const hcl = parseHcl(path, text);
    return hcl.ok ? { inputs: hcl.body.inputs ?? {}, locals: hcl.body.locals ?? {}, terraform: hcl.body.terraform ?? {} } : null;
  };
  const before = pick(base);
  const after = pick(head);
  // Unreadable at a side: what it hands over is unknown, so its units are read.
  if (before === null || after === null) return true;
  return changedKeys(before, after).some(
    (k) =>
      k.startsWith('terraform') ||
      sizesCapacity(k) ||
      [valueAt(before, k), valueAt(after, k)].some((v) => typeof v === 'string' && namesGpu(v)),
  );
}

/** Every `terragrunt.hcl` in `root` and below, breadth first, bounded. */
async function unitsBelow(root: string, io: TerragruntIo): Promise<{ units: string[]; truncated: boolean }> {
  const units: string[] = [];
  if (!io.dirs) return { units, truncated: true };
  const queue = [root];
  let seen = 0;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    if (++seen > MAX_DIRS || units.length >= MAX_UNITS) return { units, truncated: true };
    const files = await io.list(dir);
    units.push(...files.filter((f) => dirOf(f) === dir && isTerragruntPath(f)));
    // Terragrunt's own cache holds copies of every unit: never the repository's.
    queue.push(...(await io.dirs(dir)).filter((d) => !/(^|\/)(\.terragrunt-cache|\.terraform|\.git|node_modules)$/.test(d)));
  }
  return { units, truncated: false };
}

interface UnknownInclude {
  line: number | null;
  subject: string;
  needs: string;
  message: string;
}

type UnitRead = {
  /** Every file the unit's config read: the includes and the read_terragrunt_config targets. */
  sources: string[];
  invalid?: true;
  unknownInclude: UnknownInclude | null;
  outcome: ReturnType<typeof readTerragruntUnit>;
  /** The module call the unit makes, with everything it includes merged in. */
  call?: { source: string; inputs: Record<string, unknown>; scope: Scope; line: number };
};

/** One unit at one side, merged with what it includes. Null when it is absent or not valid HCL there. */
async function readUnit(reader: TreeReader, unit: string): Promise<UnitRead | null> {
  const text = await reader.read(unit);
  if (text === null) return null;
  const hcl = parseHcl(unit, text);
  // Not valid HCL: its error is the Terraform parser's to report; what it includes is unknown.
  if (!hcl.ok) return { sources: [], unknownInclude: null, invalid: true, outcome: { decls: [], diagnostics: [] } };
  const fs: PathFs = { dir: dirOf(unit), reader };
  const sources: string[] = [];
  const unknown = (line: number | null, subject: string, needs: string, why: string): UnitRead => ({
    sources,
    unknownInclude: {
      line,
      subject,
      needs,
      message: `${subject} (${needs}): ${why}, so the inputs and module it hands this unit are not followed; the unit is read alone`,
    },
    outcome: { decls: [], diagnostics: [] },
  });

  const own = await configOf(hcl.body, fs, sources);
  if ('culprit' in own) return unknown(lineOf(text, /read_terragrunt_config/), 'read_terragrunt_config', own.expr, own.culprit);
  let source = terraformSource(hcl.body);
  // A source taken from an included file is evaluated there: its locals and folder are its own.
  let parentSource: string | null = null;
  let inputs: Record<string, unknown> = {};
  let deep = false;
  const exposed: Record<string, Value> = {};
  for (const inc of includesOf(hcl.body)) {
    const where = lineOf(text, new RegExp(`^\\s*include\\b${inc.label === null ? '' : `\\s*"${inc.label}"`}`));
    const subject = inc.label === null ? 'include' : `include.${inc.label}`;
    const target = await evalPath(inc.path, fs, own.scope);
    if ('culprit' in target) return unknown(where, subject, String(inc.path), `its path uses ${target.culprit}`);
    const parentText = await reader.read(target.path);
    if (parentText === null) return unknown(where, subject, target.path, 'that file is not in the repository at this side');
    const parsed = parseHcl(target.path, parentText);
    if (!parsed.ok) return unknown(where, subject, target.path, `it is not valid HCL (${parsed.message})`);
    sources.push(target.path);
    // An included file's functions run as the including unit's: paths from the unit's folder.
    const inFs: PathFs = { ...fs, include: target.path };
    const parent = await configOf(parsed.body, inFs, sources);
    if ('culprit' in parent) return unknown(where, subject, target.path, `its read_terragrunt_config uses ${parent.culprit}`);
    const parentInputs = valuesOf(parsed.body.inputs, parent.scope);
    if (inc.mergeStrategy !== 'no_merge') {
      deep ||= inc.mergeStrategy === 'deep';
      inputs = inc.mergeStrategy === 'deep' ? deepMerge(inputs, parentInputs.raw) : { ...inputs, ...parentInputs.raw };
      const theirs = source === null && parentSource === null ? terraformSource(parsed.body) : null;
      if (theirs !== null) parentSource = await sourceValue(theirs, inFs, parent.scope);
    }
    if (inc.expose && inc.label !== null) exposed[inc.label] = { inputs: parentInputs.known, locals: parent.locals };
  }
  const bound = new Map<string, Value>(Object.keys(exposed).length > 0 ? [['include', exposed]] : []);
  const scope = moduleScope([{ path: unit, body: { locals: [own.localsRaw] } }], { bound });
  const ownInputs = hcl.body.inputs;
  if (ownInputs !== undefined) {
    const chosen = chooseObject(ownInputs, scope);
    if (!chosen.ok) {
      const line = lineOf(text, /^\s*inputs\b/);
      return {
        sources,
        unknownInclude: {
          line,
          subject: 'inputs',
          needs: typeof ownInputs === 'string' ? ownInputs : 'inputs',
          message: `inputs come from ${chosen.culprit}: the inputs this unit hands its module, and any GPU capacity they size, are not followed`,
        },
        outcome: { decls: [], diagnostics: [] },
      };
    }
    // The unit's own inputs win; with a deep merge, map by map.
    if (!chosen.absent) inputs = deep ? deepMerge(inputs, chosen.fields) : { ...inputs, ...chosen.fields };
  }
  // `source = "${include.env.locals.source_base_url}?ref=2.5.0"`: the module is known once evaluated.
  if (source !== null) source = await sourceValue(source, fs, scope);
  source ??= parentSource;
  const body: Record<string, unknown> = {
    ...(source === null ? {} : { terraform: [{ source }] }),
    inputs,
    locals: [own.localsRaw],
  };
  const line = lineOf(text, /^\s*inputs\b/) ?? lineOf(text, /^\s*include\b/) ?? 1;
  return {
    sources,
    unknownInclude: null,
    outcome: readTerragruntUnit(unit, body, text, scope),
    ...(source === null ? {} : { call: { source, inputs, scope, line } }),
  };
}

/** A module source as Terragrunt evaluates it (`${get_repo_root()}/modules/gpu`); as written when it cannot be. */
async function sourceValue(raw: string, fs: PathFs, scope: Scope): Promise<string> {
  return raw.includes('${') ? ((await pathValue(raw, fs, scope)) ?? raw) : raw;
}

const PATH_FUNCTION =
  /\b(get_repo_root|get_terragrunt_dir|get_original_terragrunt_dir|get_parent_terragrunt_dir|get_path_to_repo_root|find_in_parent_folders|path_relative_to_include|path_relative_from_include)\s*\(/;

/** A string with Terragrunt's path functions in it, evaluated; null when it cannot be. */
async function pathValue(raw: string, fs: PathFs, scope: Scope): Promise<string | null> {
  try {
    const v = await evalPathExpr({ t: 'tpl', parts: parseTemplate(raw) }, fs, scope);
    return 'culprit' in v ? null : v.path;
  } catch (err) {
    if (err instanceof ExprSyntaxError) return null;
    throw err;
  }
}

interface Include {
  label: string | null;
  path: unknown;
  expose: boolean;
  mergeStrategy: string;
}

/** `include "root" { … }` blocks (labelled) or one unlabelled `include { … }`. */
function includesOf(body: Record<string, unknown>): Include[] {
  const raw = body.include;
  const one = (label: string | null, b: unknown): Include => {
    const r = asRecord(Array.isArray(b) ? b[b.length - 1] : b);
    const strategy = typeof r.merge_strategy === 'string' ? r.merge_strategy : 'shallow';
    return { label, path: r.path, expose: r.expose === true || r.expose === 'true', mergeStrategy: strategy };
  };
  if (Array.isArray(raw)) return raw.length === 0 ? [] : [one(null, raw)];
  return Object.entries(asRecord(raw)).map(([label, b]) => one(label, b));
}

function terraformSource(body: Record<string, unknown>): string | null {
  const blocks = Array.isArray(body.terraform) ? body.terraform : [];
  const last = asRecord(blocks[blocks.length - 1]);
  return typeof last.source === 'string' ? last.source : null;
}

/**
 * A config's locals, with each `read_terragrunt_config(…)` local replaced by what that file
 * holds (its evaluated `locals` and `inputs`), so `local.env.locals.gpu_count` resolves.
 */
async function configOf(
  body: Record<string, unknown>,
  fs: PathFs,
  sources: string[],
): Promise<{ localsRaw: Record<string, unknown>; scope: Scope; locals: Value } | { culprit: string; expr: string }> {
  const localsRaw: Record<string, unknown> = {};
  for (const b of Array.isArray(body.locals) ? body.locals : []) Object.assign(localsRaw, asRecord(b));
  const plain = moduleScope([{ path: 'config.hcl', body: { locals: [localsRaw] } }]);
  for (const [name, raw] of Object.entries(localsRaw)) {
    const call = readConfigCall(raw);
    if (call === null) {
      // `base = "${get_repo_root()}/modules"`: Terragrunt's path functions answer as they would for the unit.
      const path = typeof raw === 'string' && PATH_FUNCTION.test(raw) ? await pathValue(raw, fs, plain) : null;
      if (path !== null) localsRaw[name] = literal(path);
      continue;
    }
    const found = await evalPathExpr(call, fs, plain);
    if ('culprit' in found) return { culprit: found.culprit, expr: String(raw) };
    const target = normal(found.path, fs.dir);
    const text = await fs.reader.read(target);
    const parsed = text === null ? null : parseHcl(target, text);
    if (parsed === null || !parsed.ok) return { culprit: `${target}, which cannot be read at this side`, expr: String(raw) };
    sources.push(target);
    const inner = await configOf(parsed.body, fs, sources);
    if ('culprit' in inner) return inner;
    localsRaw[name] = literal({ locals: inner.locals, inputs: valuesOf(parsed.body.inputs, inner.scope).known });
  }
  const scope = moduleScope([{ path: 'config.hcl', body: { locals: [localsRaw] } }]);
  const locals: Record<string, Value> = {};
  for (const name of Object.keys(localsRaw)) {
    const r = evaluate(`\${local.${name}}`, scope);
    if (r.ok) locals[name] = r.value;
  }
  return { localsRaw, scope, locals };
}

/** `read_terragrunt_config(path)` or `read_terragrunt_config(path, default)`: the path argument. */
function readConfigCall(raw: unknown): Expr | null {
  if (typeof raw !== 'string' || !raw.includes('read_terragrunt_config')) return null;
  const e = onlyExpr(raw);
  return e?.t === 'call' && e.name === 'read_terragrunt_config' ? (e.args[0] ?? null) : null;
}

/**
 * A parent's inputs: `known` holds what evaluates in the parent's own scope (for
 * `include.x.inputs`); `raw` is what merges into the unit, each value that evaluates replaced by
 * its value (the parent's locals are not the unit's), the others left as written, to be warned
 * about where they are read.
 */
function valuesOf(raw: unknown, scope: Scope): { known: Record<string, Value>; raw: Record<string, unknown> } {
  const known: Record<string, Value> = {};
  const out: Record<string, unknown> = {};
  if (raw === undefined) return { known, raw: out };
  const chosen = chooseObject(raw, scope);
  if (!chosen.ok || chosen.absent) return { known, raw: out };
  for (const [k, v] of Object.entries(chosen.fields)) {
    const r = evaluate(v, scope);
    if (r.ok) {
      known[k] = r.value;
      out[k] = literal(r.value);
    } else out[k] = v;
  }
  return { known, raw: out };
}

/** A value as hcl2json would print its literal: `${` in strings escaped, so nothing is re-evaluated. */
function literal(v: Value): unknown {
  if (typeof v === 'string') return v.replace(/\$\{/g, '$${');
  if (Array.isArray(v)) return v.map(literal);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, literal(x)]));
  return v;
}

function deepMerge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const out = { ...into };
  for (const [k, v] of Object.entries(from)) {
    const a = out[k];
    out[k] = isMap(a) && isMap(v) ? deepMerge(a, v) : v;
  }
  return out;
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function lineOf(text: string, re: RegExp): number | null {
  const i = text.split('\n').findIndex((l) => re.test(l));
  return i < 0 ? null : i + 1;
}

function onlyExpr(raw: string): Expr | null {
  try {
    const parts = parseTemplate(raw);
    const only = parts[0];
    return parts.length === 1 && only !== undefined && typeof only !== 'string' ? only : null;
  } catch (err) {
    if (err instanceof ExprSyntaxError) return null;
    throw err;
  }
}

/** Set results less the single-file readings of the units read here with what they include, and of the modules read through them. */
export function withoutUnits<T extends SetParseResult & Coverage>(result: T, followed: Pick<FollowedTerragrunt, 'units' | 'modules'>): T {
  if (followed.units.length === 0 && followed.modules.length === 0) return result;
  const modules = new Set(followed.modules);
  const mine = (file: string) => followed.units.includes(file) || modules.has(dirOf(file));
  return {
    ...result,
    decls: result.decls.filter((d) => !mine(d.file)),
    unresolved: (result.unresolved ?? []).filter((u) => !mine(u.file)),
    diagnostics: result.diagnostics.filter((d: Diagnostic) => !mine(d.file) || d.severity === 'error'),
    notFollowed: (result.notFollowed ?? []).filter((n) => !mine(n.file)),
  };
}
