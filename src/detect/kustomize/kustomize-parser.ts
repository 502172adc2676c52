import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl } from '../../domain/index.js';
import { kubeStringify } from '../kit/kube-yaml.js';
import { clampLine } from '../kit/lines.js';
import { dirOf } from '../kit/paths.js';
import { fileFormat } from '../kit/yaml-segments.js';
import { accountedOf } from '../parser.js';
import type {
  AccountedLines,
  Accounting,
  CapacityParser,
  Coverage,
  ParseOutcome,
  SetParseResult,
  SourceFile,
  Unfollowed,
  UnresolvedDecl,
} from '../parser.js';
import { isKustomizationPath, kustomizationReferences, readKustomization } from './kustomization.js';
import { jsonText } from './patch-apply.js';
import type { JsonObject } from './patch-apply.js';
import type { Hit } from './patches.js';
import { nameOf, render } from './render.js';
import { Sources } from './sources.js';
import type { Render, RenderedObject } from './render.js';

const RENDERED = 'kustomize-rendered.yaml';

/**
 * Kustomize overlays: the kustomization is read with the files it names (bases through
 * `resources`, `components`, patch files, `configurations`), its patches (`patches`,
 * `patchesStrategicMerge`, `patchesJson6902`, inline or in files), `replicas`, `namePrefix` and
 * `nameSuffix` are applied as kustomize applies them to custom resources, and the result is read
 * by every manifest reader `inner` holds, so any capacity kind they count is counted as the
 * overlay renders it. A patched object is reported at the line of the patch that set its GPU
 * count; one an overlay takes from a base unpatched is reported at its `resources` entry, so
 * adding or removing a patch compares with what the overlay rendered before. Where the base
 * cannot be read and the patch alone does not decide the count, a warning says so; a build that
 * would fail or that goes past the render's budget leaves its objects unknown, with an error.
 */
export function kustomizeParser(inner: readonly CapacityParser[]): CapacityParser {
  return {
    id: 'kustomize',
    acceptsPath: (path) => isKustomizationPath(path) || fileFormat(path) === 'yaml',
    acceptsSibling: isKustomizationPath,
    mightContain: (path) => isKustomizationPath(path),
    parse(path, text) {
      if (!isKustomizationPath(path)) return { decls: [], diagnostics: [], unresolved: [] };
      const { decls, diagnostics, unresolved, notFollowed, accounted } = parseKustomizations([{ path, text }], inner);
      return {
        decls,
        diagnostics,
        unresolved,
        ...(notFollowed.length === 0 ? {} : { notFollowed }),
        ...(accounted === undefined ? {} : { accounted }),
      };
    },
    parseSet: (files) => parseKustomizations(files, inner, true),
    references(file) {
      if (!isKustomizationPath(file.path)) return [];
      const read = readKustomization(file.path, file.text);
      return read.ok ? kustomizationReferences(read.value) : [];
    },
  };
}

type Result = Required<SetParseResult & Coverage> & Accounting;

function parseKustomizations(files: readonly SourceFile[], inner: readonly CapacityParser[], complete = false): Result {
  const out: Result = {
    decls: [],
    diagnostics: [],
    unresolved: [],
    supersedes: [],
    replaces: [],
    notFollowed: [],
  };
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const sources = new Sources(texts, complete);
  // Bases read for an overlay are rendered through it, not reported on their own.
  const referenced = new Set(
    files.flatMap((f) => {
      const read = isKustomizationPath(f.path) ? sources.kustomization(f.path) : undefined;
      return read?.ok === true ? kustomizationReferences(read.value) : [];
    }),
  );
  const reader = new Reader(inner);
  const read: AccountedLines[] = [];
  for (const file of files) {
    if (!isKustomizationPath(file.path) || referenced.has(file.path)) continue;
    try {
      read.push(...readOne(file.path, sources, reader, out));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      out.diagnostics.push(diagnostic(file.path, null, 'error', `kustomize parser failed: ${message}`));
    }
  }
  const clamp = (file: string, line: number) => clampLine(line, texts.get(file) ?? '');
  for (const d of out.diagnostics) if (d.line !== null) d.line = clamp(d.file, d.line);
  for (const d of out.decls) {
    d.line = clamp(d.file, d.line);
    for (const p of d.parts) p.line = d.line;
  }
  for (const u of out.unresolved) u.line = clamp(u.file, u.line);
  for (const n of out.notFollowed) if (n.line !== null) n.line = clamp(n.file, n.line);
  out.supersedes = [...new Set(out.supersedes)].sort();
  // The fields replacements copied from are read, beside the objects of what was found.
  if (read.length > 0) out.accounted = [...accountedOf(out), ...read];
  return out;
}

/** The manifest readers over rendered objects. */
class Reader {
  private readonly capacity = new WeakMap<JsonObject, boolean>();

  constructor(private readonly inner: readonly CapacityParser[]) {}

  read(text: string): ParseOutcome {
    const out: Required<ParseOutcome> = { decls: [], diagnostics: [], unresolved: [], notFollowed: [] };
    for (const p of this.inner) {
      if (!p.mightContain(RENDERED, text)) continue;
      const r = p.parse(RENDERED, text);
      out.decls.push(...r.decls);
      out.diagnostics.push(...r.diagnostics);
      out.unresolved.push(...(r.unresolved ?? []));
      out.notFollowed.push(...(r.notFollowed ?? []));
    }
    return out;
  }

  /** Some reader counts the object (or finds it uncountable): it is GPU capacity. */
  readonly isCapacity = (obj: JsonObject): boolean => {
    const known = this.capacity.get(obj);
    if (known !== undefined) return known;
    const r = this.read(kubeStringify(obj));
    // An object a reader declines to count (a ComputeClass that creates GPU node pools) is capacity too.
    const found = r.decls.length > 0 || (r.unresolved ?? []).length > 0 || (r.notFollowed ?? []).length > 0;
    this.capacity.set(obj, found);
    return found;
  };
}

/** Every rendered object in one text, and the line each starts at. */
function renderedText(objects: readonly RenderedObject[]): { text: string; starts: number[] } {
  const parts: string[] = [];
  const starts: number[] = [];
  let line = 1;
  for (const o of objects) {
    const text = `${kubeStringify(o.obj)}---\n`;
    starts.push(line);
    parts.push(text);
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) line++;
  }
  return { text: parts.join(''), starts };
}

/** The object whose text holds `line`. */
function objectAt(starts: readonly number[], line: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface Found {
  decls: CapacityDecl[];
  unresolved: UnresolvedDecl[];
  notFollowed: Unfollowed[];
  messages: string[];
}

/** Reads one kustomization's render into `out`; returns the lines its replacements copied from. */
function readOne(path: string, sources: Sources, reader: Reader, out: Required<SetParseResult & Coverage>): AccountedLines[] {
  const result = render(path, sources, reader.isCapacity);
  out.supersedes.push(...result.sources);
  for (const n of result.notes) out.diagnostics.push(diagnostic(n.file, n.line, n.severity, n.message));
  const { text, starts } = renderedText(result.objects);
  const r: ParseOutcome = result.objects.length === 0 ? { decls: [], diagnostics: [], unresolved: [] } : reader.read(text);
  const found = new Map<RenderedObject, Found>();
  const slot = (line: number): Found | null => {
    const o = result.objects[objectAt(starts, line)];
    if (o === undefined) return null;
    let f = found.get(o);
    if (!f) found.set(o, (f = { decls: [], unresolved: [], notFollowed: [], messages: [] }));
    return f;
  };
  for (const d of r.decls) slot(d.line)?.decls.push(d);
  for (const u of r.unresolved ?? []) slot(u.line)?.unresolved.push(u);
  for (const n of r.notFollowed ?? []) if (n.line !== null) slot(n.line)?.notFollowed.push(n);
  for (const d of r.diagnostics) if (d.line !== null) slot(d.line)?.messages.push(`${d.severity}\u0000${d.message}`);
  if (result.failed) reportFailure(path, result, found, out);
  if (result.failed?.absent !== undefined) besideAbsent(result.failed, result, sources, reader, out);
  for (const [o, f] of found) {
    if (f.decls.length === 0 && f.unresolved.length === 0 && f.notFollowed.length === 0) continue;
    const last = o.hits[o.hits.length - 1];
    // Unpatched objects of this kustomization's own directory are read by the other readers.
    if (result.failed === undefined && o.unknownAt === undefined && last === undefined && (o.ownDir || o.entry.file !== path)) continue;
    const at: Hit = result.failed ?? o.unknownAt ?? last ?? o.entry;
    const unknown = result.failed !== undefined || o.unknownAt !== undefined;
    const patched = last !== undefined || o.unknownAt !== undefined;
    // Diagnostics of an unpatched object belong to its own file, reported when that file changes.
    if (patched && !unknown) {
      for (const m of f.messages) {
        const [severity = 'info', message = ''] = m.split('\u0000') as ['error' | 'warning' | 'info', string];
        out.diagnostics.push(diagnostic(at.file, at.line, severity, `as patched: ${message}`));
      }
    }
    const where = o.baseUnknown === undefined ? '' : ` (its base, ${o.baseUnknown}, could not be read; counted from the patch alone)`;
    // An object whose count is unknown is unknown at every patch that touched it too: a changed
    // patch applied after the one that lost the count (a Component over a nested Component) is
    // not followed, never read as no change.
    const unknownAt = unknown ? [at, ...o.hits.filter((h) => h.file !== at.file)] : [];
    for (const d of f.decls) {
      if (unknown) {
        for (const h of unknownAt) out.unresolved.push({ file: h.file, line: h.line, kind: d.kind, name: d.name });
        continue;
      }
      out.decls.push({ ...d, file: at.file, line: at.line, parts: d.parts.map((p) => ({ ...p, line: at.line })) });
      if (where !== '')
        out.diagnostics.push(diagnostic(at.file, at.line, 'info', `${jsonText(o.obj.kind)} ${d.name}: ${d.gpus} GPUs${where}`));
    }
    for (const u of f.unresolved) out.unresolved.push({ ...u, file: at.file, line: at.line });
    if (o.replacedFrom !== undefined) notFollowedReplaced(o, o.replacedFrom, out);
    else if (o.fedFrom !== undefined && (unknown || f.unresolved.length > 0 || f.notFollowed.length > 0)) notFollowedFed(o, o.fedFrom, out);
    // What a reader does not follow in the rendered object is not followed where the render changes it.
    for (const n of f.notFollowed) out.notFollowed.push({ ...n, file: at.file, line: at.line });
    // The resource file's own reading names the object as it is before this render renames it.
    if (o.origin !== undefined) {
      for (const d of [...f.decls, ...f.unresolved]) out.replaces.push({ file: o.origin.file, kind: d.kind, name: o.origin.name });
    }
  }
  return result.read;
}

/**
 * An object whose GPU fields `replacements` write is unknown; its unresolved declaration sits on
 * the kustomization, which a pull request changing only a replaced value leaves alone. So each file
 * the replacement reads (the object's, the sources', the kustomization) is not followed where it
 * changes what the replacement is given, the fingerprint telling a change from none.
 */
function notFollowedReplaced(
  o: RenderedObject,
  from: { inputs: unknown[]; files: string[] },
  out: Required<SetParseResult & Coverage>,
): void {
  const subject = `${jsonText(o.obj.kind)} ${nameOf(o.obj)}`;
  const fingerprint = JSON.stringify(from.inputs);
  for (const file of new Set(from.files))
    out.notFollowed.push({
      file,
      line: null,
      reason: 'count-unknown',
      subject,
      needs: 'kustomize `replacements` that write GPU fields are not computed: check the rendered object (`kustomize build`) by hand',
      fingerprint,
    });
}

/**
 * An object whose GPU count is not known, with values `replacements` copied into its GPU fields:
 * each file they came from is not followed where what it gave changes (the fingerprint).
 */
function notFollowedFed(o: RenderedObject, fed: { file: string; value: unknown }[], out: Required<SetParseResult & Coverage>): void {
  const subject = `${jsonText(o.obj.kind)} ${nameOf(o.obj)}`;
  for (const file of new Set(fed.map((f) => f.file)))
    out.notFollowed.push({
      file,
      line: null,
      reason: 'count-unknown',
      subject,
      needs: `a kustomize replacement copies a value from here into the GPU fields of ${subject}, whose GPU count is not known: check the rendered object (\`kustomize build\`) by hand`,
      fingerprint: JSON.stringify(fed.filter((f) => f.file === file).map((f) => f.value)),
    });
}

/** A build that fails, or a render past its budget: an error on every file it read, its objects unknown. */
function reportFailure(
  path: string,
  result: Render,
  found: ReadonlyMap<RenderedObject, Found>,
  out: Required<SetParseResult & Coverage>,
): void {
  const failed = result.failed;
  if (failed === undefined) return;
  const message = `the kustomization ${path} is not followed: ${failed.why}; the GPU capacity it renders is unknown`;
  const files = new Set([failed.file, path, ...result.sources, ...[...found.keys()].flatMap((o) => (o.origin ? [o.origin.file] : []))]);
  for (const file of files) out.diagnostics.push(diagnostic(file, file === failed.file ? failed.line : null, 'error', message));
}

/**
 * Files beside a kustomization that names a file which does not exist (renamed away from its
 * entry, most often): its build fails, and whether these are applied at all (through a fixed
 * build, or by `kubectl apply` alone) is not known. Their objects are not counted as written but
 * as of unknown count, so one the other side counted is neither kept nor removed, and each file is
 * named with an error.
 */
function besideAbsent(
  failed: NonNullable<Render['failed']>,
  result: Render,
  sources: Sources,
  reader: Reader,
  out: Required<SetParseResult & Coverage>,
): void {
  const dir = dirOf(failed.file);
  const read = new Set(result.sources);
  for (const [file, text] of sources.files) {
    if (dirOf(file) !== dir || read.has(file) || isKustomizationPath(file) || fileFormat(file, text) !== 'yaml') continue;
    out.supersedes.push(file);
    const r = reader.read(text);
    for (const d of [...r.decls, ...(r.unresolved ?? [])]) out.unresolved.push({ file, line: d.line, kind: d.kind, name: d.name });
    out.diagnostics.push(
      diagnostic(
        file,
        null,
        'error',
        `the kustomization beside this file (${failed.file}) names ${failed.absent ?? 'a file'}, which does not exist, so \`kustomize build\` of this folder fails; whether this file is applied is not known, and its GPU capacity is not followed`,
      ),
    );
  }
}
