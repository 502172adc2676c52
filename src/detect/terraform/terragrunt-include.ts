import { diagnostic } from '../../domain/index.js';
import type { Diagnostic, TreeReader } from '../../domain/index.js';
import type { Coverage, ParseOutcome, SetParseResult, Unfollowed } from '../parser.js';
import { changedKeys, valueAt } from '../kit/changed-keys.js';
import { namesGpu, sizesCapacity } from '../kit/gpu-signal.js';
import { notFollowedInputs } from '../input-files.js';
import { dirOf } from '../kit/paths.js';
import { parseHcl } from './hcl.js';
import { isTerragruntPath } from './terragrunt.js';
import { isTfvarsPath } from './module-scope.js';
import { normal } from './terragrunt-paths.js';
import { readModuleCall } from './module-reading.js';
import { ownSource } from './module-source.js';
import { readUnit } from './terragrunt-unit-read.js';
import type { UnitRead } from './terragrunt-unit-read.js';

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
  /** Each followed parent, with the units that include it: its inputs are judged in each. */
  parents: Map<string, string[]>;
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
  // Each parent followed, with the units that read it: what cannot be followed in them is the parent's too.
  const parents = new Map<string, string[]>();
  const result: FollowedTerragrunt = { base: empty(), head: empty(), units: [], followed: [], modules: [], parents };
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
  // A changed variable file that units' extra_arguments name: read into each unit that names it.
  for (const file of changed.filter(isTfvarsPath)) {
    if (!(await nearUnits(file, io))) continue;
    const found = await unitsBelow(dirOf(dirOf(file)), io);
    const naming: string[] = [];
    for (const unit of found.units)
      for (const side of ['base', 'head'] as const) {
        const read = await readUnit(io[side], unit);
        if (read !== null && read.sources.includes(file) && !naming.includes(unit)) naming.push(unit);
      }
    if (naming.length === 0) continue;
    for (const u of naming) units.add(u);
    result.followed.push(file);
    parents.set(file, naming);
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

// Includes, read configs, and the variable files extra_arguments hand the module.
const INCLUDES = /^\s*include\b|read_terragrunt_config\s*\(|\bextra_arguments\b/m;

/**
 * A change to what a parent hands its units (inputs, locals, the module source) that could size
 * GPU capacity: a key that sizes or picks machines, or a value that names a GPU. A parent's inputs
 * need not name a GPU themselves (`max_size = 5` for units on GPU instances).
 */
function sizingChange(path: string, base: string | null, head: string | null): boolean {
  const pick = (text: string | null): Record<string, unknown> | null => {
    if (text === null) return {};
    const hcl = parseHcl(path, text);
    return hcl.ok ? { inputs: hcl.value.inputs ?? {}, locals: hcl.value.locals ?? {}, terraform: hcl.value.terraform ?? {} } : null;
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

/**
 * Terragrunt near a variable file: an `.hcl` config in its folder or one above it, or a unit in a
 * folder just below it. Only then are units searched for one naming it (a search lists folders).
 */
async function nearUnits(file: string, io: TerragruntIo): Promise<boolean> {
  const hcl = (dir: string) => async () => (await io.list(dir)).some((p) => dirOf(p) === dir && p.endsWith('.hcl'));
  for (let dir = dirOf(file), up = 0; up < 16; dir = dirOf(dir), up++) {
    if (await hcl(dir)()) return true;
    if (dir === '') break;
  }
  for (const sub of io.dirs ? (await io.dirs(dirOf(file))).slice(0, 16) : []) if (await hcl(sub)()) return true;
  return false;
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
