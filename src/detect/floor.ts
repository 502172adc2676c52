import type { NotFollowed, TreeReader } from '../domain/index.js';
import { accountSignals, resolvedSpans, scansPath } from './kit/signal-scan/account.js';
import { hclBlocks, localEntries, referenceLines, within } from './kit/signal-scan/hcl-module.js';
import type { HclBlock } from './kit/signal-scan/hcl-module.js';
import { dirOf } from './kit/paths.js';
import { RESOURCE_KINDS } from './terraform/resources.js';
import type { AccountedSignal, FileAccounting, Lines } from './kit/signal-scan/account.js';
import { isInputFile } from './input-files.js';
import type { Merged } from './merge-results.js';

/**
 * Changed files the floor reads beyond those some parser takes, and the characters it reads in
 * all: a pull request past them is not scanned further, and what is left is named (`unscanned`),
 * never passed over. GitHub lists at most 3,000 files of a pull request.
 */
const MAX_SCANNED_FILES = 3000;
const MAX_SCANNED_CHARS = 64 * 1024 * 1024;
/** GPU names named per file side when several are unaccounted for. */
const NAMED_PER_SIDE = 5;
/** Files of a Terraform module read to see where its variables go. */
const MAX_MODULE_FILES = 64;
const READ_CONCURRENCY = 8;
const NO_SIGNAL = { named: false, left: [] };

export interface FloorInput {
  /** Every changed path, sorted. */
  changed: readonly string[];
  base: Merged;
  head: Merged;
  /** Changed files a follower read in full with what they feed (variable files with their module). */
  followed: ReadonlySet<string>;
  sides: { base: TreeReader; head: TreeReader; list: (dir: string) => Promise<string[]> };
}

export interface Floor {
  /** GPU names nothing accounts for, and files past the scan's bounds. */
  notFollowed: NotFollowed[];
  /** Changed files that name GPUs at either side, every name accounted for: read. */
  named: Set<string>;
}

/**
 * The floor under every format: each changed text file is scanned for GPU names at both sides
 * (kit/signal-scan/), and each name must be accounted for, by a parser that read the lines it is
 * on or by a context that shows it is no capacity (a comment, a label, an image, a workload's
 * request, where it may be scheduled). A name nothing accounts for makes its file not followed,
 * whatever format it is written in; a file that names no GPU at either side is no capacity.
 */
export async function floorOf(input: FloorInput): Promise<Floor> {
  const floor: Floor = { notFollowed: [], named: new Set() };
  const base = byFile(input.base);
  const head = byFile(input.head);
  let chars = 0;
  // Documentation, lock files and binaries are never applied: not even read.
  const files = input.changed.filter(scansPath).slice(0, MAX_SCANNED_FILES);
  // A batch at a time, so what is held stays within the bound whatever the pull request.
  for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
    const batch = files.slice(i, i + READ_CONCURRENCY);
    if (chars > MAX_SCANNED_CHARS) {
      for (const file of batch)
        floor.notFollowed.push(unscanned(file, `more than ${MAX_SCANNED_CHARS / 1024 / 1024} MiB of changed files`));
      continue;
    }
    const read = await Promise.all(
      batch.map(async (file) => ({ file, before: await input.sides.base.read(file), after: await input.sides.head.read(file) })),
    );
    for (const { file, before, after } of read) {
      chars += (before?.length ?? 0) + (after?.length ?? 0);
      // A file the input checks judge key by key (input-files.ts) is theirs; one a follower read in
      // full with what it feeds is accounted for as a whole.
      if ([before, after].some((text) => text !== null && isInputFile(file, text))) continue;
      const whole = input.followed.has(file);
      const check = async (text: string | null, side: Map<string, FileAccounting>, reader: TreeReader) => {
        if (text === null) return NO_SIGNAL;
        const first = unaccounted(file, text, whole ? WHOLE : (side.get(file) ?? NONE));
        // A Terraform file's variables and locals are accounted for by where the module uses them.
        if (first.left.length === 0 || !file.endsWith('.tf')) return first;
        return unaccounted(file, text, await terraformSpans(file, text, side, (p) => reader.read(p), input.sides.list));
      };
      const atBase = await check(before, base, input.sides.base);
      const atHead = await check(after, head, input.sides.head);
      if (atBase.named || atHead.named) floor.named.add(file);
      // The head's names first: a name only the base side holds is named when the head has none.
      floor.notFollowed.push(...(atHead.left.length > 0 ? entries(file, atHead.left, 'head') : entries(file, atBase.left, 'base')));
    }
  }
  for (const file of input.changed.filter(scansPath).slice(MAX_SCANNED_FILES)) {
    floor.notFollowed.push(unscanned(file, `more than ${MAX_SCANNED_FILES} changed files`));
  }
  return floor;
}

const NONE: FileAccounting = { spans: [], anchors: [] };
const WHOLE: FileAccounting = { spans: [{ from: 1, to: Number.MAX_SAFE_INTEGER }], anchors: [] };

function unaccounted(file: string, text: string, accounting: FileAccounting): { named: boolean; left: AccountedSignal[] } {
  const { signals } = accountSignals(file, text, accounting);
  return { named: signals.length > 0, left: signals.filter((s) => s.by === null) };
}

/** What the parsers of one side account for, by file: explicit lines, and declarations' lines standing for their objects. */
function byFile(side: Merged): Map<string, FileAccounting> {
  const out = new Map<string, { spans: Lines[]; anchors: number[] }>();
  for (const a of side.accounted) {
    let entry = out.get(a.file);
    if (!entry) out.set(a.file, (entry = { spans: [], anchors: [] }));
    if (a.object) entry.anchors.push(a.from);
    else entry.spans.push({ from: a.from, to: a.to });
  }
  return out;
}

/**
 * One entry per side of a file: the first GPU name nothing accounts for, at its line (a name only
 * the base side holds has no line at head: `line` is null and `needs` gives the base's), and the
 * next few others in `inputs`.
 */
function entries(file: string, left: readonly AccountedSignal[], side: 'base' | 'head'): NotFollowed[] {
  const [first] = left;
  if (!first) return [];
  const others = [...new Set(left.slice(1).map((s) => `${s.token} (line ${s.line})`))].slice(0, NAMED_PER_SIDE - 1);
  return [
    {
      file,
      line: side === 'head' ? first.line : null,
      reason: 'unaccounted-signal',
      subject: first.token,
      ...(side === 'base' ? { needs: `line ${first.line} before this change` } : {}),
      ...(others.length > 0 ? { inputs: others } : {}),
    },
  ];
}

function unscanned(file: string, why: string): NotFollowed {
  return { file, line: null, reason: 'unscanned', subject: file, needs: why };
}

/** A folder of Terraform read for where its variables go. */
interface ModuleView {
  modules: { path: string; text: string; blocks: HclBlock[]; spans: Lines[] }[];
  locals: { name: string; from: number; to: number; path: string }[];
  variables: { name: string; from: number; to: number; path: string }[];
  /** Module calls whose module is a folder of this repository: `source = "./…"`, with their arguments' lines. */
  calls: { path: string; from: number; to: number; dir: string; args: { name: string; from: number; to: number }[] }[];
  /** Locals whose every use is accounted for. */
  accounted: Set<string>;
}

interface ModuleReader {
  side: Map<string, FileAccounting>;
  read: (path: string) => Promise<string | null>;
  list: (dir: string) => Promise<string[]>;
  /** Each module variable judged once per changed file, however many calls reach it. */
  judged: Map<string, Promise<boolean>>;
}

// Module calls followed into their module this deep, as the module follow reads them.
const MAX_CALL_DEPTH = 3;
// Arguments of a module call that are Terraform's own: the follow reads the copies they make.
const CALL_META = new Set(['source', 'version', 'count', 'for_each', 'providers', 'depends_on']);

/** `a/b` + `../c` → `a/c`; null when it leaves the repository. */
function resolveDir(dir: string, rel: string): string | null {
  const out = dir === '' ? [] : dir.split('/');
  for (const step of rel.split('/')) {
    if (step === '' || step === '.') continue;
    if (step === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(step);
  }
  return out.join('/');
}

async function viewOf(dir: string, given: Map<string, string>, io: ModuleReader, depth: number): Promise<ModuleView> {
  const others = (await io.list(dir)).filter((p) => !given.has(p) && dirOf(p) === dir && p.endsWith('.tf'));
  const texts = new Map(given);
  for (const p of others.slice(0, MAX_MODULE_FILES)) {
    const t = await io.read(p);
    if (t !== null) texts.set(p, t);
  }
  const modules = [...texts].map(([path, t]) => {
    const blocks = hclBlocks(t);
    const read = blocks.filter((b) => (b.type === 'resource' && (b.labels[0] ?? '') in RESOURCE_KINDS) || b.type === 'output');
    return { path, text: t, blocks, spans: [...resolvedSpans(path, t, io.side.get(path) ?? NONE), ...read] };
  });
  const calls: ModuleView['calls'] = [];
  if (depth < MAX_CALL_DEPTH) {
    for (const m of modules) {
      for (const b of m.blocks.filter((x) => x.type === 'module')) {
        const args = localEntries(m.text, b);
        const source = args.find((a) => a.name === 'source');
        const rel = source ? /=\s*"(\.\.?\/[^"]*)"/.exec(m.text.split('\n')[source.from - 1] ?? '')?.[1] : undefined;
        const target = rel === undefined ? null : resolveDir(dir, rel);
        if (target === null) continue;
        calls.push({ path: m.path, from: b.from, to: b.to, dir: target, args });
      }
    }
  }
  const view: ModuleView = {
    modules,
    locals: modules.flatMap((m) =>
      m.blocks.filter((b) => b.type === 'locals').flatMap((b) => localEntries(m.text, b).map((e) => ({ ...e, path: m.path }))),
    ),
    variables: modules.flatMap((m) =>
      m.blocks.filter((b) => b.type === 'variable').map((b) => ({ name: b.labels[0] ?? '', from: b.from, to: b.to, path: m.path })),
    ),
    calls,
    accounted: new Set(),
  };
  // Locals read locals: grow the accounted set until it holds still.
  for (let round = 0, grew = true; grew && round < 16; round++) {
    grew = false;
    for (const l of view.locals) {
      if (!view.accounted.has(`local.${l.name}`) && (await usedOnlyInAccounted(view, 'local', l.name, l, io, depth))) {
        view.accounted.add(`local.${l.name}`);
        grew = true;
      }
    }
  }
  return view;
}

/**
 * True when every use of `var.name` or `local.name` in the folder lies in what is accounted for.
 * A use in a call of a module of this repository is accounted for only when the module's own
 * variable is, read the same way: the call's lines being read says nothing of what the module
 * does with the value (a template it renders, a launch template no parser reads).
 */
async function usedOnlyInAccounted(
  view: ModuleView,
  what: 'var' | 'local',
  name: string,
  own: { path: string; from: number; to: number },
  io: ModuleReader,
  depth: number,
): Promise<boolean> {
  for (const m of view.modules) {
    for (const line of referenceLines(m.text, what, name)) {
      if (m.path === own.path && own.from <= line && line <= own.to) continue;
      if (view.locals.some((l) => l.path === m.path && view.accounted.has(`local.${l.name}`) && l.from <= line && line <= l.to)) continue;
      const call = view.calls.find((c) => c.path === m.path && c.from <= line && line <= c.to);
      const arg = call?.args.find((a) => a.from <= line && line <= a.to);
      if (call && arg && !CALL_META.has(arg.name)) {
        if (!(await variableAccounted(call.dir, arg.name, io, depth + 1))) return false;
        continue;
      }
      if (!within(m.spans, line)) return false;
    }
  }
  return true;
}

/** True when a module's variable goes only where its module accounts for it; false when the module is not in the tree. */
function variableAccounted(dir: string, name: string, io: ModuleReader, depth: number): Promise<boolean> {
  const key = `${dir}\u0000${name}`;
  let judged = io.judged.get(key);
  if (!judged) io.judged.set(key, (judged = judgeVariable(dir, name, io, depth)));
  return judged;
}

async function judgeVariable(dir: string, name: string, io: ModuleReader, depth: number): Promise<boolean> {
  const view = await viewOf(dir, new Map(), io, depth);
  const v = view.variables.find((x) => x.name === name);
  if (!v) return view.modules.length > 0;
  return usedOnlyInAccounted(view, 'var', name, v, io, depth);
}

/**
 * What a Terraform module accounts for beyond its parsers' objects, for one changed `.tf` file:
 * every block of a resource type the Terraform parser reads (it read it, GPUs or none), outputs
 * (a value shown, no capacity), and the variables and locals whose every use lies in what is
 * accounted for (or that nothing uses), following calls of the repository's own modules into
 * them. A variable handed to a module or resource nothing reads stays unaccounted: what its GPU
 * values feed is not followed.
 */
async function terraformSpans(
  file: string,
  text: string,
  side: Map<string, FileAccounting>,
  read: (path: string) => Promise<string | null>,
  list: (dir: string) => Promise<string[]>,
): Promise<FileAccounting> {
  const io: ModuleReader = { side, read, list, judged: new Map() };
  const view = await viewOf(dirOf(file), new Map([[file, text]]), io, 0);
  const own = view.modules.find((m) => m.path === file);
  const spans: Lines[] = [...(own?.spans ?? [])];
  for (const l of view.locals) if (l.path === file && view.accounted.has(`local.${l.name}`)) spans.push(l);
  for (const v of view.variables) if (v.path === file && (await usedOnlyInAccounted(view, 'var', v.name, v, io, 0))) spans.push(v);
  return { spans, anchors: [] };
}
