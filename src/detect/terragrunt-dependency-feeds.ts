import type { NotFollowed } from '../domain/index.js';
import { hclBlocks, localEntries } from './kit/signal-scan/hcl-module.js';
import { dirOf } from './kit/paths.js';
import { isTerragruntPath } from './terraform/terragrunt.js';
import { isTfFile } from './terraform/tf-json.js';
import { reachItems } from './terraform-block-reach.js';
import { moduleFeeds, resolvePath } from './terraform-feeds.js';
import type { ModuleFeeds, UnreadGpu } from './terraform-feeds.js';
import { unitInputs, unitModule } from './terragrunt-feeds.js';
import { foldersOfTree } from './terraform-tree-walk.js';
import type { CiSide } from './ci-variable-feeds.js';

/** Folders walked to find the units that read a changed unit's outputs. */
const MAX_DIRS = 512;
const UNIT_SOURCE = /^[ \t]*source[ \t]*=/m;
const CONFIG_PATH = /^[ \t]*config_path[ \t]*=[ \t]*"([^"]*)"/m;

/** A unit's `dependency "name"` blocks: where each points, its mock outputs, whether they reach an apply. */
interface Dependency {
  name: string;
  /** The folder of the unit it reads, null when not a plain relative path. */
  dir: string | null;
  /** Mock outputs by key, as written (trimmed lines); `*` holds a one-line map as a whole. */
  mocks: Map<string, string>;
  mocksApply: boolean;
}

/**
 * Values a Terragrunt unit takes from another unit's outputs (`dependency.cluster.outputs.gpu_nodes`
 * in its `inputs`): the review reads each unit with its own inputs, so a change to what the other
 * unit outputs, or to the mock outputs Terragrunt hands an apply before that unit has any, moves
 * the value without the reading unit changing. A changed unit's mock outputs, and a changed unit
 * (or module of one) whose outputs other units of the tree read, are judged where those outputs
 * land: an input that reaches a GPU name in its unit's module, counted or not (terraform-feeds.ts
 * `readsNothing`), or an input of a module not in this tree, is not followed; one sizing only CPU
 * groups is no change. A dependency output named by an expression, or a consumer search cut
 * short, is not followed where it may land on GPUs. One entry per file.
 */
export async function dependencyOutputsNotFed(
  file: string,
  texts: { before: string | null; after: string | null },
  sides: { base: CiSide; head: CiSide },
): Promise<NotFollowed[]> {
  if (!isTerragruntPath(file) && !isTfFile(file)) return [];
  const side = texts.after === null ? sides.base : sides.head;
  const text = texts.after ?? texts.before ?? '';
  const judge = inputJudge(side);
  // The file's own mock outputs, where they reach an apply.
  if (isTerragruntPath(file)) {
    const [before, after] = [dependencies(file, texts.before), dependencies(file, texts.after)];
    for (const dep of after.length > 0 ? after : before) {
      const other = (after.length > 0 ? before : after).find((d) => d.name === dep.name);
      const keys = changedKeys(other?.mocks ?? new Map(), dep.mocks);
      if (keys.length === 0 || (!dep.mocksApply && !(other?.mocksApply ?? false))) continue;
      const found = await judgeReaders(file, text, dep.name, keys, judge);
      if (found !== null) return [note(file, found, `the mock outputs of \`dependency.${dep.name}\` (${keys.join(', ')})`)];
    }
  }
  // Units of the tree reading this unit's outputs, or the outputs of a unit built from this module.
  if (!(await mayHaveReaders(file, text, side))) return [];
  const tree = await foldersOfTree(side, MAX_DIRS);
  const units: string[] = [];
  for (const dir of tree.dirs) units.push(...(await side.list(dir)).filter((p) => dirOf(p) === dir && isTerragruntPath(p)));
  const producers = new Set<string>();
  for (const unit of units) {
    const t = await side.read(unit);
    if (t === null) continue;
    if (unit === file || (isTfFile(file) && unitModule(unit, t, side.repositories ?? []) === dirOf(file))) producers.add(dirOf(unit));
  }
  if (producers.size === 0) return [];
  const outputs = await changedOutputs(file, texts, side);
  if (outputs.length === 0) return [];
  for (const unit of units) {
    const t = await side.read(unit);
    if (t === null) continue;
    for (const dep of dependencies(unit, t)) {
      if (dep.dir === null || !producers.has(dep.dir)) continue;
      const found = await judgeReaders(unit, t, dep.name, outputs, judge);
      if (found !== null)
        return [note(file, found, `the outputs of \`${dirOf(file) || '.'}\` that \`${unit}\` reads (\`dependency.${dep.name}\`)`)];
    }
  }
  return [];
}

/**
 * The outputs of the producing module whose value may differ: those built (through locals,
 * resources, other outputs) from a changed input of the unit, or from a changed block of the
 * changed module file; `*` (any) where the module is not in this tree.
 */
async function changedOutputs(file: string, texts: { before: string | null; after: string | null }, side: CiSide): Promise<string[]> {
  const text = texts.after ?? texts.before ?? '';
  let dir = dirOf(file);
  const changed = new Set<string>();
  if (isTerragruntPath(file)) {
    const module = unitModule(file, text, side.repositories ?? []);
    if (module === null) return ['*'];
    dir = module;
    const inputs = (t: string | null) => {
      const lines = (t ?? '').split('\n');
      return new Map(
        unitInputs(t ?? '').map((e) => [
          e.name,
          lines
            .slice(e.from - 1, e.to)
            .join('\n')
            .trim(),
        ]),
      );
    };
    const [b, a] = [inputs(texts.before), inputs(texts.after)];
    for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) changed.add(`var.${k}`);
    // A change outside the inputs (the module's source, an include) may change any output.
    if (changed.size === 0 && texts.before !== texts.after && unitModule(file, texts.before ?? '', side.repositories ?? []) !== module)
      return ['*'];
  } else {
    const bodies = (t: string | null) => {
      const lines = (t ?? '').split('\n');
      return new Map(
        reachItems(file, t ?? '').map((i) => [
          i.id,
          lines
            .slice(i.from - 1, i.to)
            .join('\n')
            .trim(),
        ]),
      );
    };
    const [b, a] = [bodies(texts.before), bodies(texts.after)];
    for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) changed.add(k);
  }
  const items = [];
  for (const p of (await side.list(dir)).filter((x) => dirOf(x) === dir && isTfFile(x) && !x.endsWith('.json'))) {
    items.push(...reachItems(p, p === file ? text : ((await side.read(p)) ?? '')));
  }
  const byId = new Map(items.map((i) => [i.id, i]));
  const builtFromChange = (id: string): boolean => {
    const seen = new Set<string>();
    const queue = [id];
    while (queue.length > 0) {
      const at = queue.shift() as string;
      if (changed.has(at)) return true;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const ref of byId.get(at)?.refs.keys() ?? []) {
        const parts = ref.split('.');
        queue.push(byId.has(ref) ? ref : parts.slice(0, ref.startsWith('data.') ? 3 : 2).join('.'));
      }
    }
    return false;
  };
  return items.filter((i) => i.kind === 'output' && builtFromChange(i.id)).map((i) => i.id.slice('output.'.length));
}

/** A changed `.tf` file is a module some unit may build; a changed unit, one whose outputs some unit may read. */
async function mayHaveReaders(file: string, text: string, side: CiSide): Promise<boolean> {
  if (isTerragruntPath(file)) return true;
  // A module with no output gives a dependency nothing to read.
  for (const p of (await side.list(dirOf(file))).filter((x) => dirOf(x) === dirOf(file) && isTfFile(x))) {
    const t = p === file ? text : ((await side.read(p)) ?? '');
    if (reachItems(p, t).some((i) => i.kind === 'output')) return true;
  }
  return false;
}

/** The dependency blocks of a unit's text. */
function dependencies(file: string, text: string | null): Dependency[] {
  if (text === null) return [];
  const lines = text.split('\n');
  const body = (from: number, to: number) =>
    lines
      .slice(from - 1, to)
      .map((l) => l.trim())
      .join('\n');
  return hclBlocks(text)
    .filter((b) => b.type === 'dependency' && b.labels[0] !== undefined)
    .map((b) => {
      const entries = localEntries(text, b);
      const blockText = body(b.from, b.to);
      const path = CONFIG_PATH.exec(blockText)?.[1];
      const mock = entries.find((e) => e.name === 'mock_outputs');
      const mocks = new Map<string, string>();
      if (mock !== undefined) {
        const inner = localEntries(text, { type: 'mock_outputs', labels: [], from: mock.from, to: mock.to });
        if (inner.length === 0) mocks.set('*', body(mock.from, mock.to));
        for (const e of inner) mocks.set(e.name, body(e.from, e.to));
      }
      const allowed = entries.find((e) => e.name === 'mock_outputs_allowed_terraform_commands');
      // Without the list, Terragrunt hands the mocks to every command that finds no outputs, apply too.
      const mocksApply = allowed === undefined || /["']apply["']|\$\{|\bvar\.|\blocal\./.test(body(allowed.from, allowed.to));
      const dir = path === undefined || path.includes('${') || path.startsWith('/') ? null : resolvePath(dirOf(file), path);
      return { name: b.labels[0] ?? '', dir, mocks, mocksApply };
    });
}

function changedKeys(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  if (before.has('*') || after.has('*')) return before.get('*') === after.get('*') && before.size === after.size ? [] : ['*'];
  return [...new Set([...after.keys(), ...before.keys()])].filter((k) => before.get(k) !== after.get(k));
}

/** What one input of a unit reaches: a GPU name in its module, `remote` for a module not in this tree, null for none. */
type InputJudge = (unit: string, text: string, input: string) => Promise<UnreadGpu | 'remote' | null>;

function inputJudge(side: CiSide): InputJudge {
  const io = { ...side, side: new Map(), readsNothing: true, cache: new Map<string, Promise<ModuleFeeds>>() };
  return async (unit, text, input) => {
    const dir = unitModule(unit, text, side.repositories ?? []);
    // A unit naming no module takes its parent's, read with that parent; one named elsewhere is not seen here.
    if (dir === null) return UNIT_SOURCE.test(text) ? 'remote' : null;
    // The unit's module is itself a call (as unitSpans reads it).
    const feeds = await moduleFeeds(dir, io, io.cache, undefined, 1);
    return feeds.declares(input) ? feeds.reachedGpu(`var.${input}`) : null;
  };
}

/** The first input of `unit` reading `dependency.<dep>.outputs` (`keys`, or any for `*`) that reaches GPUs, with the input. */
async function judgeReaders(
  unit: string,
  text: string,
  dep: string,
  keys: readonly string[],
  judge: InputJudge,
): Promise<{ unit: string; input: string; line: number; gpu: UnreadGpu | 'remote' } | null> {
  const lines = text.split('\n');
  const escaped = dep.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const whole = new RegExp(
    `\\bdependency\\.${escaped}(?:\\.outputs)?(?![\\w.-]|\\[)|\\bdependency\\.${escaped}\\.outputs\\[|\\bdependency\\[`,
  );
  const named = new RegExp(`\\bdependency\\.${escaped}\\.outputs\\.([A-Za-z_][\\w-]*)`, 'g');
  for (const e of unitInputs(text)) {
    const body = lines.slice(e.from - 1, e.to).join('\n');
    const reads = whole.test(body) || [...body.matchAll(named)].some((m) => keys.includes('*') || keys.includes(m[1] ?? ''));
    if (!reads) continue;
    const gpu = await judge(unit, text, e.name);
    if (gpu !== null) return { unit, input: e.name, line: e.from, gpu };
  }
  return null;
}

function note(file: string, found: { unit: string; input: string; line: number; gpu: UnreadGpu | 'remote' }, what: string): NotFollowed {
  const where = found.unit === file ? `line ${String(found.line)}` : `${found.unit}:${String(found.line)}`;
  const lands =
    found.gpu === 'remote'
      ? `a module not in this repository, whose defaults the review cannot see`
      : `\`${found.gpu.token}\` (${found.gpu.path}:${String(found.gpu.line)})`;
  return {
    file,
    line: found.unit === file ? found.line : null,
    reason: 'program-config',
    subject: 'Terragrunt',
    needs: `${what} set the input \`${found.input}\` (${where}), which reaches ${lands}; the review reads each unit with its own inputs, not with another unit's outputs`,
    inputs: [found.input, ...(found.gpu === 'remote' ? [] : [found.gpu.token])],
  };
}
