import { accountSignals, resolvedSpans } from './kit/signal-scan/account.js';
import { hclBlocks, localEntries, referenceLines, within } from './kit/signal-scan/hcl-module.js';
import type { HclBlock } from './kit/signal-scan/hcl-module.js';
import { dirOf } from './kit/paths.js';
import { RESOURCE_KINDS } from './terraform/resources.js';
import { MANIFEST_RESOURCE_TYPES } from './terraform/k8s-manifests.js';
import { ownSource } from './terraform/module-source.js';
import { isTfFile } from './terraform/tf-json.js';
import { mergedModuleSources } from './terraform/merged-module-sources.js';
import { valueReach } from './terraform-module-reach.js';
import { FROM_CALLER } from './terraform-block-reach.js';
import { jsonBlocks, jsonModuleCalls, jsonVariables, sharesLines } from './terraform-json-feeds.js';
import type { JsonBlock } from './terraform-json-feeds.js';
import type { FileAccounting } from './kit/signal-scan/account.js';
import type { Lines } from './kit/lines.js';

/** Files of a Terraform module read to see where its variables go. */
const MAX_MODULE_FILES = 64;
/** Modules calling modules: followed this deep (as follow-modules reads them); past it, what a call is given feeds nothing known. */
const MAX_DEPTH = 3;
// Arguments of a module block that are Terraform's, not the module's variables.
const META = new Set(['source', 'version', 'count', 'for_each', 'providers', 'depends_on']);
/** The meta-arguments that copy a call: what they are given reaches every argument that reads `each` or `count`. */
const COPIES = new Set(['count', 'for_each']);
/**
 * Resource types that may make machines, or hold what does (a generic ARM resource, a manifest, a
 * chart): a value one of them is handed may size GPUs. Any other type (a placement policy, a
 * bucket, a DNS record) makes none.
 */
const MAKES_MACHINES =
  /instance|node|pool|cluster|machine|_vm|virtual_machine|scale_set|fleet|launch_template|autoscaling|azapi|manifest|helm|job|capacity|reservation|notebook|workstation|batch|compute_engine/;
/** An argument's value read per copy of its call. */
const PER_COPY = /\b(?:each\.(?:value|key)|count\.index)\b/;
const NONE: FileAccounting = { spans: [], anchors: [] };

/** What the feed reads: one side of the pull request, and what its parsers account for, by file. */
export interface FeedIo {
  read: (path: string) => Promise<string | null>;
  list: (dir: string) => Promise<string[]>;
  side: ReadonlyMap<string, FileAccounting>;
  /** The repository's own names (`github.com/acme/infra`): a module called by its URL is one of this tree. */
  repositories?: readonly string[];
  /**
   * Every GPU name is taken as unread, what the parsers count too: asked of a value set where the
   * parsers do not look (a CI's `-var`, `TF_VAR_*`, a Terragrunt dependency's output), whose
   * change moves a count they read with other values.
   */
  readsNothing?: boolean;
}

interface ModuleFile {
  path: string;
  text: string;
  /** What the parsers read or that is no capacity, less the local module calls (judged argument by argument). */
  spans: Lines[];
  /** Calls of modules of this folder's repository by relative path, with their arguments. */
  calls: ModuleCall[];
}

interface ModuleCall {
  block: HclBlock;
  dir: string | null;
  args: { name: string; from: number; to: number }[];
  /** The arguments whose value is read per copy (`each.value.vm_size`, `count.index`): what `for_each` or `count` feeds. */
  perCopy: string[];
}

/** What a module accounts for: each file's lines, and which of its variables feed only what is read. */
export interface ModuleFeeds {
  spansOf: (path: string) => Lines[];
  variableFed: (name: string) => boolean;
  /** The module declares this variable. */
  declares: (name: string) => boolean;
  /**
   * Every use of the variable is in a data source, an output, or a resource of a type that makes
   * no machines (a placement policy, a bucket): what it is given sizes no pool, read or not.
   */
  makesNoMachines: (name: string) => boolean;
  /**
   * The first GPU machine type, accelerator or GPU resource in this module, or in a module of
   * this repository it calls, that nothing accounts for (what the floor would name were its file
   * changed); null when there is none.
   */
  unreadGpu: () => UnreadGpu | null;
  /**
   * The first GPU name nothing reads that this value (`var.x`, `local.x`, `module.call.arg`)
   * reaches, block by block (terraform-block-reach.ts): a CPU group's count beside an unread GPU
   * group reaches none.
   */
  reachedGpu: (subject: string) => UnreadGpu | null;
  /** As reachedGpu, FROM_CALLER (terraform-block-reach.ts) where the answer is the caller's. */
  reachedFrom: (subject: string) => UnreadGpu | null;
}

/** A GPU name nothing reads, where it is. */
export interface UnreadGpu {
  path: string;
  line: number;
  token: string;
}

/**
 * Where a Terraform module's values go: a variable or local is accounted for when every use lies
 * in what is read (a resource the Terraform parser reads, an output, a local itself accounted for),
 * and an argument of a local module call only when the variable it sets is, inside the called
 * module, accounted for in turn (bounded by MAX_DEPTH). So a GPU value handed down to a launch
 * template or a rendered template nothing reads stays unaccounted, on the line that sets it.
 * `own` is the changed file's text at this side; one cache per side holds each folder read once.
 */
export function moduleFeeds(
  dir: string,
  io: FeedIo,
  cache: Map<string, Promise<ModuleFeeds>>,
  own?: { path: string; text: string },
  depth = 0,
): Promise<ModuleFeeds> {
  const key = `${depth}\u0000${dir}\u0000${own?.path ?? ''}`;
  let found = cache.get(key);
  if (found === undefined) cache.set(key, (found = readFeeds(dir, io, cache, own, depth)));
  return found;
}

async function readFeeds(
  dir: string,
  io: FeedIo,
  cache: Map<string, Promise<ModuleFeeds>>,
  own: { path: string; text: string } | undefined,
  depth: number,
): Promise<ModuleFeeds> {
  // `.tf.json` files too: a variable they declare or use is judged there, its uses by what the parsers read of them.
  const listed = (await io.list(dir)).filter((p) => p !== own?.path && dirOf(p) === dir && isTfFile(p));
  const texts = new Map<string, string>(own ? [[own.path, own.text]] : []);
  for (const p of listed.slice(0, MAX_MODULE_FILES)) {
    const t = await io.read(p);
    if (t !== null) texts.set(p, t);
  }
  // A call's source as Terraform merges the folder's override files: an override block giving only arguments is a call of the primary's module.
  const sources = mergedModuleSources([...texts].map(([path, text]) => ({ path, text })));
  const files = [...texts].map(([path, text]) =>
    moduleFile({
      dir,
      path,
      text,
      accounting: io.readsNothing === true ? NONE : (io.side.get(path) ?? NONE),
      called: depth > 0,
      readsNothing: io.readsNothing === true,
      repositories: io.repositories ?? [],
      sources,
    }),
  );
  // What each call's module feeds, read before judging this one (a call's argument is judged by it).
  const called = new Map<string, ModuleFeeds | null>();
  for (const f of files) {
    for (const c of f.calls) {
      if (c.dir === null || called.has(c.dir)) continue;
      called.set(c.dir, depth < MAX_DEPTH ? await moduleFeeds(c.dir, io, cache, undefined, depth + 1) : null);
    }
  }
  // Every argument on the line (a `.tf.json` call may hold several on one) must feed only what is read.
  // What `for_each` or `count` is given reaches the module through each argument read per copy
  // (`vm_size = each.value.vm_size`), and copies all it declares: it is read only when those
  // arguments are, and the module leaves no GPU name unread (a copy of an unread pool is unread).
  const argFed = (c: ModuleCall, line: number): boolean =>
    c.args
      .filter((a) => a.from <= line && line <= a.to && (COPIES.has(a.name) || !META.has(a.name)))
      .every((a) => {
        const feeds = c.dir === null ? null : (called.get(c.dir) ?? null);
        if (feeds === null) return false;
        if (!COPIES.has(a.name)) return feeds.variableFed(a.name);
        return feeds.unreadGpu() === null && c.perCopy.every((name) => feeds.variableFed(name) || feeds.makesNoMachines(name));
      });
  // Locals, and `data "template_file"` blocks (a render is a value like a local): each accounted
  // for when every use of it is.
  type Valued = { name: string; from: number; to: number; what: 'local' | 'data.template_file'; path: string };
  const locals = files.flatMap((m) =>
    blocksOf(m.path, m.text).flatMap((b): Valued[] =>
      b.type === 'locals'
        ? (b.entries ?? localEntries(m.text, b)).map((e) => ({ ...e, what: 'local' as const, path: m.path }))
        : b.type === 'data' && b.labels[0] === 'template_file' && b.labels[1] !== undefined
          ? [{ name: b.labels[1], from: b.from, to: b.to, what: 'data.template_file' as const, path: m.path }]
          : [],
    ),
  );
  const keyOf = (l: Valued) => `${l.what}.${l.name}`;
  const accounted = new Set<string>();
  const read = (m: ModuleFile, line: number): boolean => {
    const call = m.calls.find((c) => c.block.from <= line && line <= c.block.to);
    if (call !== undefined) return argFed(call, line);
    return within(m.spans, line) || locals.some((l) => l.path === m.path && accounted.has(keyOf(l)) && l.from <= line && line <= l.to);
  };
  const variables = files.flatMap((m) =>
    m.path.endsWith('.json')
      ? jsonVariables(m.text).map((v) => ({ ...v, path: m.path }))
      : hclBlocks(m.text)
          .filter((b) => b.type === 'variable')
          .map((b) => ({ name: b.labels[0] ?? '', from: b.from, to: b.to, path: m.path })),
  );
  // Terraform's JSON syntax with several blocks on a line: a use there cannot be told apart from
  // what is read beside it, so none is read.
  const packed = new Set(files.filter((m) => m.path.endsWith('.json') && sharesLines(blocksOf(m.path, m.text))).map((m) => m.path));
  // A variable block passes no value anywhere: a name in its description or validation feeds nothing.
  const inVariable = (m: ModuleFile, line: number) => variables.some((v) => v.path === m.path && v.from <= line && line <= v.to);
  const usedOnlyInRead = (what: 'var' | 'local' | 'data.template_file', name: string, at: { path: string; from: number; to: number }) =>
    files.every((m) =>
      referenceLines(m.text, what, name).every(
        (line) => !packed.has(m.path) && ((m.path === at.path && at.from <= line && line <= at.to) || read(m, line) || inVariable(m, line)),
      ),
    );
  // A render is read where the module is read as it stands (the changed folder's manifests and
  // templated values); a called module is read through its call without them. A render nothing
  // here reads may be read where this tree does not show: neither is known as no capacity.
  const used = (l: Valued) => depth === 0 && files.some((m) => referenceLines(m.text, l.what, l.name).length > 0);
  // Locals read locals: grow the accounted set until it holds still.
  for (let round = 0, grew = true; grew && round < 16; round++) {
    grew = false;
    for (const l of locals) {
      if (!accounted.has(keyOf(l)) && usedOnlyInRead(l.what, l.name, l) && (l.what === 'local' || used(l))) {
        accounted.add(keyOf(l));
        grew = true;
      }
    }
  }
  const fed = new Map<string, boolean>();
  const variableFed = (name: string): boolean => {
    let known = fed.get(name);
    if (known === undefined) {
      const v = variables.find((x) => x.name === name);
      // A variable the module does not declare is an error where it is set: nothing known is fed.
      fed.set(name, (known = v !== undefined && usedOnlyInRead('var', name, v)));
    }
    return known;
  };
  const spansOf = (path: string): Lines[] => {
    const m = files.find((f) => f.path === path);
    if (m === undefined) return [];
    const spans: Lines[] = [...m.spans];
    for (const c of m.calls) {
      // The call's own lines (its header, source) are read with it; each argument by what it feeds,
      // `count` and `for_each` by what their copies feed.
      const args = c.args.filter((a) => COPIES.has(a.name) || !META.has(a.name));
      for (let line = c.block.from; line <= c.block.to; line++) {
        const arg = args.find((a) => a.from <= line && line <= a.to);
        if (arg === undefined || argFed(c, line)) spans.push({ from: line, to: line });
      }
    }
    for (const l of locals) if (l.path === path && accounted.has(keyOf(l))) spans.push(l);
    for (const v of variables) if (v.path === path && variableFed(v.name)) spans.push(v);
    // A line holding a variable that feeds what is not read stays unaccounted, whatever else is on it (JSON on one line).
    return without(
      spans,
      variables.filter((v) => v.path === path && !variableFed(v.name)),
    );
  };
  // Once per module: a GPU name left unaccounted here or in a called module of this repository.
  // Only a machine type, accelerator or GPU resource: a key or label with `gpu` in it (a network
  // named `gpus`) declares no machines.
  let unread: UnreadGpu | null | undefined;
  const unreadGpu = (): UnreadGpu | null => {
    if (unread !== undefined) return unread;
    unread = null;
    for (const m of files) {
      const left = accountSignals(m.path, m.text, { spans: spansOf(m.path), anchors: [] }).signals.find(
        (s) => s.by === null && s.kind !== 'gpu-key',
      );
      if (left !== undefined) return (unread = { path: m.path, line: left.line, token: left.token });
    }
    for (const feeds of called.values()) {
      const found = feeds?.unreadGpu() ?? null;
      if (found !== null) return (unread = found);
    }
    return unread;
  };
  const reachedFrom = valueReach({ files, read, calledModules: called, unreadGpu, spansOf, called: depth > 0 });
  // Asked of a module for itself (a Terragrunt unit's), a caller's answer is the module's own unread GPU.
  const reachedGpu = (subject: string) => {
    const found = reachedFrom(subject);
    return found === FROM_CALLER ? unreadGpu() : found;
  };
  const makesNoMachines = (name: string): boolean =>
    files.every((m) => {
      const blocks = blocksOf(m.path, m.text);
      return referenceLines(m.text, 'var', name).every((line) => {
        const block = blocks.find((b) => b.from <= line && line <= b.to);
        if (block === undefined) return false;
        if (block.type === 'data' || block.type === 'output' || block.type === 'variable') return true;
        return block.type === 'resource' && !MAKES_MACHINES.test(block.labels[0] ?? '');
      });
    });
  return {
    spansOf,
    variableFed,
    declares: (name) => variables.some((v) => v.name === name),
    makesNoMachines,
    unreadGpu,
    reachedGpu,
    reachedFrom,
  };
}

/** A module file's top-level blocks, in HCL or Terraform's JSON syntax (whose `locals` carry their entries). */
const blocksOf = (path: string, text: string): (HclBlock & { entries?: JsonBlock['entries'] })[] =>
  path.endsWith('.json') ? jsonBlocks(text) : hclBlocks(text);

/**
 * The folder of this repository a module source names: `./x` or `../x` from `dir`, or the
 * repository's own URL (`github.com/acme/infra//modules/x?ref=v1`, read from the tree as the
 * module follow reads it); undefined for any other source, null for a path leaving the repository.
 */
export function ownModuleDir(source: string, dir: string, repositories: readonly string[]): string | null | undefined {
  if (source.startsWith('./') || source.startsWith('../')) return resolvePath(dir, source);
  return ownSource(source, repositories)?.dir;
}

function moduleFile(f: {
  dir: string;
  path: string;
  text: string;
  accounting: FileAccounting;
  called: boolean;
  readsNothing: boolean;
  repositories: readonly string[];
  sources: ReadonlyMap<string, string>;
}): ModuleFile {
  const { dir, path, text, accounting, called, repositories } = f;
  const blocks = blocksOf(path, text);
  const lines = text.split('\n');
  const calls: ModuleCall[] = [];
  // In JSON syntax too: a call's arguments are judged by what they feed, never read with the call as a whole.
  for (const call of path.endsWith('.json') ? jsonModuleCalls(text) : []) {
    const source = f.sources.get(call.name);
    const moduleDir = source === undefined ? undefined : ownModuleDir(source, dir, repositories);
    if (moduleDir === undefined) continue;
    const block = { type: 'module', labels: [call.name], from: call.from, to: call.to };
    calls.push({ block, dir: moduleDir, args: call.args, perCopy: perCopyArgs(lines, call.args) });
  }
  for (const block of blocks.filter((b) => b.type === 'module')) {
    const source = f.sources.get(block.labels[0] ?? '');
    const moduleDir = source === undefined ? undefined : ownModuleDir(source, dir, repositories);
    // A module called from a registry or another repository is read by what reads its inputs (registry-module-inputs).
    if (moduleDir === undefined) continue;
    const args = localEntries(text, block);
    calls.push({ block, dir: moduleDir, args, perCopy: perCopyArgs(lines, args) });
  }
  const read = blocks.filter(
    (b) =>
      (!f.readsNothing && b.type === 'resource' && readType(b.labels[0] ?? '', called)) ||
      b.type === 'output' ||
      // A called module's findings and notes are placed at its call, not here: what its reading
      // reads are the types above, and a registry module, read by its module reader or noted at the call.
      (called && b.type === 'module' && !calls.some((c) => c.block === b)),
  );
  const spans = without(
    [...resolvedSpans(path, text, accounting), ...read],
    calls.map((c) => c.block),
  );
  return { path, text, spans, calls };
}

/** The module arguments, of a call's, whose lines read `each` or `count.index`. */
function perCopyArgs(lines: readonly string[], args: readonly { name: string; from: number; to: number }[]): string[] {
  return args.filter((a) => !META.has(a.name) && lines.slice(a.from - 1, a.to).some((l) => PER_COPY.test(l))).map((a) => a.name);
}

/**
 * Resources the Terraform parser reads: node pools and groups, and in a called module (whose
 * findings are placed at the call) Kubernetes objects written in Terraform; in the changed
 * folder, those are what the parsers' own accounting says they read.
 */
const readType = (type: string, called: boolean) =>
  type in RESOURCE_KINDS || (called && (MANIFEST_RESOURCE_TYPES as readonly string[]).includes(type));

/** `spans` less the lines of `holes`. */
export function without(spans: readonly Lines[], holes: readonly Lines[]): Lines[] {
  let out: Lines[] = [...spans];
  for (const h of holes) {
    out = out.flatMap((s) => {
      if (s.to < h.from || h.to < s.from) return [s];
      const parts: Lines[] = [];
      if (s.from < h.from) parts.push({ from: s.from, to: h.from - 1 });
      if (h.to < s.to) parts.push({ from: h.to + 1, to: s.to });
      return parts;
    });
  }
  return out;
}

/** `a/b` + `../c` → `a/c`; null when it leaves the repository. */
export function resolvePath(dir: string, rel: string): string | null {
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
