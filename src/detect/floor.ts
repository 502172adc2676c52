import type { NotFollowed, TreeReader } from '../domain/index.js';
import { accountSignals, scansPath } from './kit/signal-scan/account.js';
import { dirOf } from './kit/paths.js';
import { refusedDocuments } from './kit/refused-documents.js';
import type { AccountedSignal, FileAccounting } from './kit/signal-scan/account.js';
import type { Lines } from './kit/lines.js';
import { moduleFeeds, ownModuleDir } from './terraform-feeds.js';
import { tfvarsNotFed } from './tfvars-feeds.js';
import { isLocalUnit, parentInputsNotFed, unitSpans } from './terragrunt-feeds.js';
import type { TfvarsSide } from './tfvars-feeds.js';
import { isInputFile } from './input-files.js';
import { changedValuesReach } from './terraform-value-reach.js';
import { paramFileNotFed } from './param-file-feeds.js';
import { bicepParamReach } from './bicep-param-reach.js';
import { ciVariablesNotFed } from './ci-variable-feeds.js';
import { dependencyOutputsNotFed } from './terragrunt-dependency-feeds.js';
import { isTfFile } from './terraform/tf-json.js';
import { programConfigNote } from './program-config.js';
import { programSourceNote } from './program-sources.js';
import { gpuReferenceNotes, outputUseNotes } from './terraform-references.js';
import { gpuValueReferenceNotes } from './terraform-value-references.js';
import { claimSide, crossplaneClaimNotes } from './crossplane-claims.js';
import type { ProgramIo } from './program-config.js';
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
/** A module block's source: one of this repository (by path or its own URL) has what its arguments feed judged. */
const SOURCES = /^[ \t]*source[ \t]*=[ \t]*"([^"]*)"/gm;
const READ_CONCURRENCY = 8;
const NO_SIGNAL = { named: false, left: [] };

export interface FloorInput {
  /** Every changed path, sorted. */
  changed: readonly string[];
  base: Merged;
  head: Merged;
  /** Changed files a follower read in full with what they feed (variable files with their module). */
  followed: ReadonlySet<string>;
  /** Variable files with no module beside them, and the folder of the module they were read with. */
  tfvarsModules?: ReadonlyMap<string, string>;
  /** Terragrunt parents followed into their units, with those units. */
  terragruntParents?: ReadonlyMap<string, readonly string[]>;
  sides: { base: TreeReader; head: TreeReader; list: (dir: string) => Promise<string[]>; dirs?: (dir: string) => Promise<string[]> };
  /** The repository's own names, where known: a module called by its URL is one of this tree. */
  repositories?: readonly string[];
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
  const scanned: Scanned[] = [];
  // What each folder's modules feed, read once per side.
  const feedSide = (reader: TreeReader, side: Map<string, FileAccounting>): TfvarsSide => ({
    read: (p) => reader.read(p),
    list: input.sides.list,
    side,
    cache: new Map(),
    ...(input.repositories ? { repositories: input.repositories } : {}),
  });
  const callsOwn = (file: string, text: string) =>
    [...text.matchAll(SOURCES)].some((m) => ownModuleDir(m[1] ?? '', dirOf(file), input.repositories ?? []) !== undefined);
  const feedSides = { base: feedSide(input.sides.base, base), head: feedSide(input.sides.head, head) };
  const claimSides = { base: claimSide(programIo(input, input.sides.base)), head: claimSide(programIo(input, input.sides.head)) };
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
      // An object the applier refuses is applied by no one, whichever reader its kind belongs to.
      if (after !== null) floor.notFollowed.push(...refusedDocuments(file, after));
      // A deployment parameter file names no GPU while its values size its template's pools.
      if (file.toLowerCase().endsWith('.json')) floor.notFollowed.push(...(await paramFileNotFed(file, { before, after }, input.sides)));
      // A Bicep parameter file's value sizing a resource no reader counts that names GPUs (a scale set).
      if (/\.(bicepparam|json)$/i.test(file)) floor.notFollowed.push(...(await bicepParamReach(file, { before, after }, input.sides)));
      // A file the input checks judge key by key (input-files.ts) is theirs, but for a variable
      // file read with its module: what each changed GPU value feeds there; one a follower read
      // in full with what it feeds is accounted for as a whole.
      // A Terragrunt parent's changed inputs, by what they feed in each unit including it.
      const units = input.terragruntParents?.get(file);
      if (units !== undefined) floor.notFollowed.push(...(await parentInputsNotFed(file, { before, after }, units, feedSides)));
      // Values a program no reader evaluates takes in (a Pulumi stack's config, a Terraform Stack's inputs).
      const program = await programConfigNote(
        file,
        { before, after },
        programIo(input, after === null ? input.sides.base : input.sides.head),
      );
      // A program's source that sizes what another of its files names GPUs for (its stack config, a constants module).
      const source =
        program ??
        (await programSourceNote(file, { before, after }, programIo(input, after === null ? input.sides.base : input.sides.head)));
      if (source !== null) floor.notFollowed.push(source);
      // Terraform variables a CI job, script or Makefile sets (`TF_VAR_*`, `-var`, `-var-file`).
      const dirs = input.sides.dirs ? { dirs: input.sides.dirs } : {};
      const walkSides = { base: { ...feedSides.base, ...dirs }, head: { ...feedSides.head, ...dirs } };
      floor.notFollowed.push(...(await ciVariablesNotFed(file, { before, after }, walkSides)));
      // Another unit's outputs, or mock outputs, a Terragrunt unit's inputs read.
      floor.notFollowed.push(...(await dependencyOutputsNotFed(file, { before, after }, walkSides)));
      // A changed block that takes its machines from a block naming GPUs (a launch template in another file).
      const refSide = (reader: TreeReader, accounting: Map<string, FileAccounting>) => ({ reader, list: input.sides.list, accounting });
      const refs = after === null ? [] : await gpuReferenceNotes(file, after, before, refSide(input.sides.head, head));
      if (refs.length === 0 && before !== null)
        floor.notFollowed.push(
          ...(await gpuReferenceNotes(file, before, after, refSide(input.sides.base, base))).map((n) => ({ ...n, line: null })),
        );
      floor.notFollowed.push(...refs);
      // A changed machine resource that takes its machine type from a variable or local naming GPUs.
      const valueRefs = after === null ? [] : await gpuValueReferenceNotes(file, after, before, refSide(input.sides.head, head));
      if (valueRefs.length === 0 && before !== null)
        floor.notFollowed.push(
          ...(await gpuValueReferenceNotes(file, before, after, refSide(input.sides.base, base))).map((n) => ({ ...n, line: null })),
        );
      floor.notFollowed.push(...valueRefs);
      // A Crossplane claim whose Composition names GPUs: the claim sizes what it makes.
      const claims = await crossplaneClaimNotes(file, after, claimSides.head);
      floor.notFollowed.push(...(claims.length > 0 ? claims : await crossplaneClaimNotes(file, before, claimSides.base)));
      // A changed output of a module that a caller reads into a block naming GPUs.
      const callerIo = { ...input.sides, ...(input.repositories ? { repositories: input.repositories } : {}) };
      floor.notFollowed.push(...(await outputUseNotes(file, { before, after }, callerIo)));
      // A changed value that names no GPU but sizes a GPU declaration of its module nothing reads.
      if (!input.followed.has(file)) floor.notFollowed.push(...(await changedValuesReach(file, { before, after }, feedSides)));
      if ([before, after].some((text) => text !== null && isInputFile(file, text))) {
        const notFed = await tfvarsNotFed(file, { before, after }, input.tfvarsModules?.get(file), feedSides);
        floor.notFollowed.push(...notFed);
        continue;
      }
      const whole = input.followed.has(file);
      const relabelled = changedMigLabels(before, after);
      const check = async (text: string | null, side: Map<string, FileAccounting>, reader: TreeReader) => {
        if (text === null) return NO_SIGNAL;
        const first = unaccounted(file, text, whole ? WHOLE : (side.get(file) ?? NONE), relabelled);
        // A Terragrunt unit's inputs are accounted for by what they feed in its module.
        if (!whole && file.endsWith('.hcl') && first.named && isLocalUnit(file, text, input.repositories)) {
          const io = reader === input.sides.base ? feedSides.base : feedSides.head;
          return unaccounted(file, text, { spans: await unitSpans(file, text, side.get(file) ?? NONE, io), anchors: [] }, relabelled);
        }
        // A Terraform file's variables and locals are accounted for by where the module uses them,
        // and what a local module call is given by what it feeds there (terraform-feeds.ts).
        if (whole || !isTfFile(file) || (first.left.length === 0 && !(first.named && callsOwn(file, text)))) return first;
        const io = reader === input.sides.base ? feedSides.base : feedSides.head;
        const feeds = await moduleFeeds(dirOf(file), io, io.cache, { path: file, text });
        return unaccounted(file, text, { spans: feeds.spansOf(file), anchors: [] }, relabelled);
      };
      scanned.push({
        file,
        before,
        after,
        atBase: await check(before, base, input.sides.base),
        atHead: await check(after, head, input.sides.head),
      });
    }
  }
  const sameText = readElsewhere(scanned);
  for (const { file, atBase, atHead } of scanned) {
    if (atBase.named || atHead.named) floor.named.add(file);
    const baseLeft = sameText.base.has(file) ? [] : atBase.left;
    const headLeft = sameText.head.has(file) ? [] : atHead.left;
    // The head's names first: a name only the base side holds is named when the head has none.
    floor.notFollowed.push(...(headLeft.length > 0 ? entries(file, headLeft, 'head') : entries(file, baseLeft, 'base')));
  }
  for (const file of input.changed.filter(scansPath).slice(MAX_SCANNED_FILES)) {
    floor.notFollowed.push(unscanned(file, `more than ${MAX_SCANNED_FILES} changed files`));
  }
  return floor;
}

/** What the program a configuration file feeds is read with: the side's files, and the listings. */
function programIo(input: FloorInput, reader: TreeReader): ProgramIo {
  return {
    read: (p) => reader.read(p),
    list: input.sides.list,
    ...(input.sides.dirs ? { dirs: input.sides.dirs } : {}),
    ...(input.repositories ? { repositories: input.repositories } : {}),
  };
}

interface Scanned {
  file: string;
  before: string | null;
  after: string | null;
  atBase: { named: boolean; left: AccountedSignal[] };
  atHead: { named: boolean; left: AccountedSignal[] };
}

/**
 * The files, per side, whose text is also what another changed path reads at that side, where
 * every GPU name was accounted for: a symbolic link at the old name read as its target (as a
 * checkout and the tool applying it do), the target's own name one no reader takes. The text was
 * read, under the name that applies it, with nothing left; the same objects under a second name
 * are the same objects.
 */
function readElsewhere(scanned: readonly Scanned[]): { base: Set<string>; head: Set<string> } {
  const out = { base: new Set<string>(), head: new Set<string>() };
  for (const side of ['base', 'head'] as const) {
    const text = (s: Scanned) => (side === 'base' ? s.before : s.after);
    const result = (s: Scanned) => (side === 'base' ? s.atBase : s.atHead);
    const accounted = new Map<string, string>();
    for (const s of scanned) {
      const t = text(s);
      // Named or not: read as the script or manifest it is applied as, a name the scan of an
      // unknown extension takes for a GPU (a flag's value) may be none there.
      if (t !== null && result(s).left.length === 0) accounted.set(t, s.file);
    }
    for (const s of scanned) {
      const t = text(s);
      const by = t === null ? undefined : accounted.get(t);
      if (by !== undefined && by !== s.file && result(s).left.length > 0) out[side].add(s.file);
    }
  }
  return out;
}

const NONE: FileAccounting = { spans: [], anchors: [] };
const WHOLE: FileAccounting = { spans: [{ from: 1, to: Number.MAX_SAFE_INTEGER }], anchors: [] };

/** The MIG layout label of the GPU Operator: a node's value picks how many devices each GPU becomes. */
const MIG_LABEL = /\bnvidia\.com\/mig\.config(?![\w.-])/i;

/**
 * The lines, trimmed, that set a MIG layout label at one side and not the other. No reader links a
 * pool's MIG layout to its count, so a pool read by a parser whose label is added, removed or
 * given another layout is not followed; one whose label stands as it was is read.
 */
function changedMigLabels(before: string | null, after: string | null): Set<string> {
  const labelled = (text: string | null) =>
    new Set(
      (text ?? '')
        .split('\n')
        .filter((l) => MIG_LABEL.test(l))
        .map((l) => l.trim()),
    );
  const [b, a] = [labelled(before), labelled(after)];
  return new Set([...b, ...a].filter((l) => !(b.has(l) && a.has(l))));
}

function unaccounted(
  file: string,
  text: string,
  accounting: FileAccounting,
  relabelled: ReadonlySet<string> = new Set(),
): { named: boolean; left: AccountedSignal[] } {
  const { signals } = accountSignals(file, text, accounting);
  const lines = relabelled.size > 0 ? text.split('\n') : [];
  const moved = (s: AccountedSignal) => s.by === 'parser' && MIG_LABEL.test(s.token) && relabelled.has((lines[s.line - 1] ?? '').trim());
  return { named: signals.length > 0, left: signals.filter((s) => s.by === null || moved(s)) };
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
