import { inNameOnlyHeader, noCapacityContext, passedToProgram } from './contexts.js';
import { helmSetContext, inHelmSet } from './helm-set.js';
import type { NoCapacity } from './contexts.js';
import { notApplied } from './not-applied.js';
import type { NotApplied } from './not-applied.js';
import { findSignals, mayNameGpus } from './signals.js';
import type { Signal } from './signals.js';
import { lineAt, lineStarts } from './structure.js';
import { scanStructure } from './scan-structure.js';
import type { Container, PathPoint, Structure } from './structure.js';
import { declaresInfrastructure, runsPoolCli, syntaxOf } from './syntax.js';
import { tfJsonComment } from './tf-json-comments.js';
import { workloadSpans } from './workload-kinds.js';
import type { TextKind } from './syntax.js';
import type { Lines } from '../lines.js';
import { fileFormat } from '../yaml-segments.js';

/**
 * What the parsers account for in one file: `spans` they read in full (explicit accounting), and
 * `anchors`, lines of declarations whose parser gave no finer account: each stands for the object
 * that holds it (see objectAround).
 */
export interface FileAccounting {
  spans: readonly Lines[];
  anchors: readonly number[];
}

/** A GPU name the scan found, where, and what accounts for it (null: nothing does). */
export interface AccountedSignal extends Signal {
  line: number;
  /**
   * `overridden`: in a YAML pair its mapping sets again later, which no applier keeps (Structure.overridden);
   * a `NotApplied` kind: in a file no tool applies (not-applied.ts).
   */
  by: 'parser' | 'workload' | 'overridden' | NoCapacity | NotApplied | null;
}

export interface FileSignals {
  /** `docs`, `dependencies` and `binary` files are not scanned: they are never applied as capacity. */
  kind: TextKind | 'binary';
  signals: AccountedSignal[];
}

const EMPTY: FileAccounting = { spans: [], anchors: [] };

/** A path the floor reads: text that could be applied (not documentation, a lock file or binary). */
export function scansPath(path: string): boolean {
  const kind = syntaxOf(path).kind;
  return kind === 'yaml' || kind === 'brace' || kind === 'plain';
}

/**
 * CRLF line ends read as LF ones, as YAML, HCL and JSON parsers read them: the `\r` becomes a
 * blank, so offsets and lines stay the text's own.
 */
function lf(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?=\n)/g, ' ') : text;
}

/** A file with no extension that holds Kubernetes objects is YAML, as the readers take it (yaml-segments.ts). */
function syntaxFor(path: string, text: string): ReturnType<typeof syntaxOf> {
  const syntax = syntaxOf(path);
  return syntax.kind === 'plain' && fileFormat(path, text) === 'yaml' ? syntaxOf(`${path}.yaml`) : syntax;
}

/** Text with a NUL in its first 8,000 characters is binary, as git judges it. */
function looksBinary(text: string): boolean {
  return text.slice(0, 8000).includes('\u0000');
}

/**
 * Every GPU name in a file, each with what accounts for it: a parser that read the lines it is
 * on, or a context that shows it to be no capacity. Linear in the text: one pass for the
 * structure, one regular expression per kind of name, and spans and signals walked in order.
 */
export function accountSignals(path: string, raw: string, accounting: FileAccounting = EMPTY): FileSignals {
  const text = lf(raw);
  const syntax = syntaxFor(path, text);
  if (syntax.kind === 'binary' || looksBinary(text)) return { kind: 'binary', signals: [] };
  if (syntax.kind === 'docs' || syntax.kind === 'dependencies') return { kind: syntax.kind, signals: [] };
  if (!mayNameGpus(text)) return { kind: syntax.kind, signals: [] };
  const structure = scanStructure(text, syntax);
  // In programs, keys naming GPUs (`num_gpus=`, `gpu_id`) are everywhere and size nothing an applier
  // reads, unless the program declares infrastructure through an SDK (Pulumi's `gpu: true`).
  const keys = syntax.keys && (!syntax.code || declaresInfrastructure(text) || runsPoolCli(path, text));
  const found = findSignals(text, structure, keys);
  if (found.length === 0) return { kind: syntax.kind, signals: [] };
  const starts = lineStarts(text);
  const hcl = /\.(?:tf|tofu|tfvars|hcl)$/.test(path);
  const tfJson = /\.(?:tf|tofu)\.json$/.test(path);
  const spans = mergeSpans([
    ...accounting.spans,
    ...accounting.anchors.map((line) => objectAround(structure, starts, line, blocksOf(path))),
  ]);
  const workloads = workloadSpans(structure);
  const dropped = mergeRanges(structure.overridden);
  const inert = notApplied(path, text);
  let s = 0;
  let lines: string[] | undefined;
  let d = 0;
  const signals = found.map((signal): AccountedSignal => {
    const line = lineAt(starts, signal.offset);
    while (s < spans.length && (spans[s] as Lines).to < line) s++;
    while (d < dropped.length && (dropped[d] as Range).to <= signal.offset) d++;
    const span = spans[s];
    let by: AccountedSignal['by'];
    if (structure.masked[signal.offset] !== text[signal.offset]) by = 'comment';
    else if (tfJson && tfJsonComment(pointAt(structure.points, signal.offset)?.path ?? null)) by = 'comment';
    else if ((dropped[d]?.from ?? Infinity) <= signal.offset) by = 'overridden';
    else if (span && span.from <= line) by = 'parser';
    else if (inert !== null) by = inert;
    else if (
      workloads.some((w) => w.from <= line && line <= w.to) &&
      !passedToProgram(pointAt(structure.points, signal.offset)?.path ?? null, signal.kind)
    )
      by = 'workload';
    else if (hcl && signal.kind === 'gpu-key' && inNameOnlyHeader(lineText(text, starts, line), signal.offset - (starts[line - 1] ?? 0)))
      by = 'label';
    else {
      const point = pointAt(structure.points, signal.offset);
      by = inHelmSet(point?.path ?? null)
        ? helmSetContext(point, structure.containers, (lines ??= text.split('\n')), signal.token)
        : noCapacityContext(point?.path ?? null, signal.token, signal.kind === 'gpu-resource');
    }
    return { ...signal, line, by };
  });
  if (hcl) manifestLabels(signals, structure, starts, (lines ??= text.split('\n')));
  if (hcl) emptyClusterLabels(signals, structure, starts, (lines ??= text.split('\n')));
  return { kind: syntax.kind, signals };
}

/** The header of a Terraform resource holding a Kubernetes manifest: its label is the object's name in Terraform. */
const MANIFEST_HEADER = /^[ \t]*resource[ \t]+"(?:kubernetes_manifest|kubectl_manifest)"[ \t]+"[^"\n]*"[ \t]*\{/;

/**
 * A manifest resource's label naming GPUs (`resource "kubectl_manifest" "gpu_flavor"`) says what
 * the body already says: where the body names GPUs too and every one of those is accounted for
 * (read, or shown to be no capacity), the label is a name, like an object's `metadata.name`. A
 * body that names none leaves the label the only word of GPUs there: it stays a signal.
 */
function manifestLabels(signals: AccountedSignal[], structure: Structure, starts: readonly number[], lines: readonly string[]): void {
  for (const label of signals) {
    if (label.by !== null || label.kind !== 'gpu-key') continue;
    const header = lines[label.line - 1] ?? '';
    const m = MANIFEST_HEADER.exec(header.slice(0, HEADER_CHARS));
    if (m === null || label.offset - (starts[label.line - 1] ?? 0) >= m[0].length) continue;
    const block = objectAround(structure, starts, label.line, 'hcl');
    const body = signals.filter((s) => s.line > label.line && s.line <= block.to);
    if (body.length > 0 && body.every((s) => s.by !== null)) label.by = 'label';
  }
}

/** The header of a GKE cluster resource. */
const GKE_CLUSTER_HEADER = /^[ \t]*resource[ \t]+"google_container_cluster"[ \t]+"[^"\n]*"[ \t]*\{/;
const REMOVES_DEFAULT_POOL = /^[ \t]*remove_default_node_pool[ \t]*=[ \t]*true[ \t]*(?:#.*|\/\/.*)?$/;
const POOL_BLOCK = /^[ \t]*(?:node_pool|dynamic[ \t]+"node_pool")[ \t]*\{|^[ \t]*node_pool[ \t]*=/;

/**
 * A GKE cluster's label naming GPUs (`resource "google_container_cluster" "gpu-cluster"`) where
 * the cluster makes no nodes of its own: it removes its default pool and declares no `node_pool`,
 * so its pools are the separate `google_container_node_pool` resources the parser reads. The label
 * is then a name. A cluster that keeps its default pool or declares pools inline may make GPU
 * nodes no reader counts: its label stays a signal.
 */
function emptyClusterLabels(signals: AccountedSignal[], structure: Structure, starts: readonly number[], lines: readonly string[]): void {
  for (const label of signals) {
    if (label.by !== null || label.kind !== 'gpu-key') continue;
    const m = GKE_CLUSTER_HEADER.exec((lines[label.line - 1] ?? '').slice(0, HEADER_CHARS));
    if (m === null || label.offset - (starts[label.line - 1] ?? 0) >= m[0].length) continue;
    const block = objectAround(structure, starts, label.line, 'hcl');
    const body = lines.slice(label.line, block.to);
    if (body.some((l) => REMOVES_DEFAULT_POOL.test(l)) && !body.some((l) => POOL_BLOCK.test(l))) label.by = 'label';
  }
}

/** A block header is short: a line is read this far at most, so the scan stays linear however long the line. */
const HEADER_CHARS = 512;

function lineText(text: string, starts: readonly number[], line: number): string {
  const head = text.slice(starts[line - 1] ?? 0, (starts[line - 1] ?? 0) + HEADER_CHARS);
  const end = head.indexOf('\n');
  return end < 0 ? head : head.slice(0, end);
}

/** The lines a file's accounting covers, each declaration's line standing for its object. */
export function resolvedSpans(path: string, raw: string, accounting: FileAccounting): Lines[] {
  if (accounting.anchors.length === 0) return mergeSpans(accounting.spans);
  const text = lf(raw);
  const structure = scanStructure(text, syntaxFor(path, text));
  const starts = lineStarts(text);
  return mergeSpans([...accounting.spans, ...accounting.anchors.map((line) => objectAround(structure, starts, line, blocksOf(path)))]);
}

function mergeSpans(spans: readonly Lines[]): Lines[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from);
  const out: Lines[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last && span.from <= last.to + 1) last.to = Math.max(last.to, span.to);
    else out.push({ ...span });
  }
  return out;
}

interface Range {
  from: number;
  to: number;
}

/** Offset ranges (end exclusive) sorted and merged where they overlap: disjoint, in order. */
function mergeRanges(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const r of [...ranges].sort((a, b) => a.from - b.from)) {
    const last = out[out.length - 1];
    if (last && r.from <= last.to) last.to = Math.max(last.to, r.to);
    else out.push({ ...r });
  }
  return out;
}

function pointAt(points: readonly PathPoint[], offset: number): PathPoint | undefined {
  let lo = 0;
  let hi = points.length - 1;
  let found: PathPoint | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = points[mid] as PathPoint;
    if (p.offset <= offset) {
      found = p;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** How a path's Terraform blocks are written: HCL (`resource "t" "n" {`), JSON syntax (`.tf.json`, `.tofu.json`), or not at all. */
type Blocks = 'hcl' | 'json' | null;

const blocksOf = (path: string): Blocks =>
  /\.(?:tf|tofu|tfvars|hcl)$/.test(path) ? 'hcl' : /\.(?:tf|tofu)\.json$/.test(path) ? 'json' : null;

/** Keys above a block's body in Terraform's JSON syntax: `resource.<type>.<name>`, `module.<name>`, `locals`. */
const JSON_BLOCK_DEPTH: Readonly<Record<string, number>> = { resource: 3, data: 3, ephemeral: 3, locals: 1, terraform: 1 };

/**
 * The block of a `.tf.json` file holding a line: the object under its block type and labels
 * (`{"resource": {"aws_eks_node_group": {"gpu": {…}}}}`), arrays of blocks between them or not.
 * Never the whole file: a declaration read in one block says nothing of the variables beside it.
 */
function jsonBlock(chain: readonly Container[]): Container | undefined {
  const keyed = [...chain].reverse().filter((c) => c.key !== null && c.document !== true);
  const type = keyed[0]?.key;
  if (type === undefined || type === null) return undefined;
  return keyed[(JSON_BLOCK_DEPTH[type] ?? 2) - 1];
}

/**
 * The object that holds a line, as the default account of a declaration there: the Kubernetes
 * object (a mapping or list item with a `kind` of its own, so a `List`'s items or Helm values'
 * `extraObjects` each stand alone), else a CloudFormation resource (an entry of a top-level
 * `Resources`), else a Terraform top-level block (HCL or JSON syntax), else the YAML document or
 * the whole file.
 */
function objectAround(structure: Structure, starts: readonly number[], line: number, blocks: Blocks): Lines {
  const lineEnd = (starts[line] ?? Number.MAX_SAFE_INTEGER) - 1;
  const point = pointAt(structure.points, lineEnd);
  const boxes = structure.containers;
  const chain: Container[] = [];
  for (let i = point?.container ?? -1; i >= 0; i = (boxes[i] as Container).parent) chain.push(boxes[i] as Container);
  const span = (c: Container): Lines => ({ from: Math.min(c.start, line), to: Math.max(c.end, line) });
  const parentOf = (c: Container) => (c.parent >= 0 ? boxes[c.parent] : undefined);
  const kube = chain.find((c) => c.hasKind && !c.document);
  if (kube) return span(kube);
  const resource = chain.find((c) => {
    const p = parentOf(c);
    return p?.key === 'resources' && (parentOf(p)?.document ?? false);
  });
  if (resource) return span(resource);
  if (blocks === 'hcl') {
    const block = chain.find((c) => parentOf(c)?.document === true && parentOf(c)?.parent === -1);
    if (block) return span(block);
  }
  if (blocks === 'json') {
    const block = jsonBlock(chain);
    return block ? span(block) : { from: line, to: line };
  }
  const document = chain.find((c) => c.document);
  if (document) return span(document);
  return { from: 1, to: starts.length };
}
