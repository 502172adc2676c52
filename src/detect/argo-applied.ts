import { repositoryName } from '../domain/index.js';
import type { TreeReader } from '../domain/index.js';
import { detectFile } from './detect-file.js';
import { empty } from './flux-variables.js';
import { kubeStringify } from './kit/kube-yaml.js';
import { accountSignals } from './kit/signal-scan/account.js';
import type { FileAccounting } from './kit/signal-scan/account.js';
import {
  isKustomizationPath,
  KUSTOMIZATION_NAMES,
  kustomizationReferences,
  readKustomization,
  resolvePath,
} from './kustomize/kustomization.js';
import { isObject, jsonText } from './kustomize/patch-apply.js';
import type { Json, JsonObject } from './kustomize/patch-apply.js';
import { loadObjects } from './kustomize/patches.js';
import { accountedOf } from './parser.js';
import type { CapacityParser, Coverage, ObjectRef, ParseOutcome, SetParseResult, SourceFile, Unfollowed } from './parser.js';

/**
 * What an Argo CD `Application` applies from a folder of this repository: a kustomization (with the
 * Application's own `kustomize` options: `patches`, `components`, `namePrefix`, `nameSuffix`,
 * `replicas`) or a plain directory of manifests. A pull request that points an Application at
 * another folder, adds one for a folder of GPU pools, or patches a pool through the Application
 * changes what the cluster gets while no manifest changes. Where an Application's source differs
 * between the sides (or it is there at one side only), what it applies is read at each side and
 * counted on the Application; a render that cannot be read in full is named not followed there.
 * Helm sources are chart installs (helm/gitops-installs.ts); a source of another repository is
 * not in view. `parsers` are all of them: the kustomize set parser renders, the others read files.
 */

export interface ArgoAppliedIo {
  base: TreeReader;
  head: TreeReader;
  list(dir: string): Promise<string[]>;
  dirs?(dir: string): Promise<string[]>;
  /** `host/owner/name` of this repository, where known. */
  repositories?: readonly string[];
}

// Bounds of one render: the files a source's build reads, the folders a recursive directory walks.
const MAX_FILES = 256;
const MAX_DIRS = 64;
// Where the Application's own kustomize options are laid over its folder, as `kustomize edit` would.
const OVERLAY_DIR = '.argocd-application';

interface Source {
  /** `Application/<name>#<index>`: the same source at both sides. */
  key: string;
  path: string;
  repoURL: string;
  /** The fields that decide what the source applies, as written. */
  spec: string;
  kustomize: JsonObject | null;
  directory: JsonObject | null;
  plugin: boolean;
  line: number;
}

type Out = SetParseResult & Coverage;

export async function followArgoApplied(
  changed: readonly string[],
  io: ArgoAppliedIo,
  parsers: readonly CapacityParser[],
): Promise<{ base: Out; head: Out; followed: string[] }> {
  const out = { base: empty() as Out, head: empty() as Out };
  // The Applications whose sources were read: read, whatever they apply.
  const followed = new Set<string>();

  for (const file of changed.filter((p) => /\.ya?ml$/i.test(p))) {
    const sides = { base: await sourcesOf(file, io.base), head: await sourcesOf(file, io.head) };
    const keys = new Set([...sides.base.keys(), ...sides.head.keys()]);
    for (const key of keys) {
      const b = sides.base.get(key);
      const h = sides.head.get(key);
      if (b !== undefined && h !== undefined && b.spec === h.spec) continue;
      for (const side of ['base', 'head'] as const) {
        const source = side === 'base' ? b : h;
        if (source === undefined || !local(source, io)) continue;
        const read = await applied(source, io[side], io, parsers);
        followed.add(file);
        const at = (x: { file: string; line: number }) => {
          x.file = file;
          x.line = source.line;
        };
        for (const d of read.decls) {
          at(d);
          for (const p of d.parts) p.line = source.line;
        }
        for (const u of read.unresolved ?? []) at(u);
        out[side].decls.push(...read.decls);
        out[side].unresolved?.push(...(read.unresolved ?? []));
        // A patch the Application gives reads, on its own, as the object it patches: the render replaces it.
        out[side].replaces = [...(out[side].replaces ?? []), ...(await ownReadings(file, io[side], parsers, read))];
        if (read.notFollowed && read.notFollowed.length > 0) {
          out[side].notFollowed = [
            ...(out[side].notFollowed ?? []),
            {
              file,
              line: source.line,
              reason: 'gitops-install',
              subject: source.key,
              needs: source.path,
              inputs: read.notFollowed.map((n) => n.subject),
              fingerprint: fingerprint(source, read.notFollowed),
            },
          ];
        }
        if (side === 'head') out.head.diagnostics.push(...read.diagnostics.map((d) => ({ ...d, file, line: source.line })));
      }
    }
  }
  return { ...out, followed: [...followed] };
}

/** The objects the file's own reading finds under the names the render gives (a strategic-merge patch in `kustomize.patches`). */
async function ownReadings(file: string, reader: TreeReader, parsers: readonly CapacityParser[], render: Out): Promise<ObjectRef[]> {
  const names = new Set([...render.decls, ...(render.unresolved ?? [])].map((d) => `${d.kind}\u0000${d.name}`));
  const text = await reader.read(file);
  if (text === null || names.size === 0) return [];
  const own = detectFile(
    file,
    text,
    parsers.filter((p) => p.parseSet === undefined),
  );
  return [...own.decls, ...(own.unresolved ?? [])]
    .filter((d) => names.has(`${d.kind}\u0000${d.name}`))
    .map((d) => ({ file, kind: d.kind, name: d.name }));
}

/**
 * What a note on the Application stands for: the notes of what it applies, by what each reader
 * fingerprinted (the GPU fields it could not read), so that the same unread capacity under another
 * folder is the same note; a note without a fingerprint stands for the source as written (raised
 * whenever the source changes).
 */
function fingerprint(source: Source, notes: readonly Unfollowed[]): string {
  const own = notes.map((n) => (n.fingerprint === undefined ? null : [n.reason, n.subject, n.fingerprint]));
  return JSON.stringify(own.some((n) => n === null) ? [source.spec, notes] : own);
}

/** A source of this repository: its `repoURL` names it, or (its names unknown) its folder is here. */
function local(source: Source, io: ArgoAppliedIo): boolean {
  const own = io.repositories ?? [];
  if (own.length === 0) return true;
  const repo = repositoryName(source.repoURL);
  return repo !== null && own.includes(repo);
}

/** The folder sources of a file's Applications, by key. Helm sources and charts are left to the chart installs. */
async function sourcesOf(file: string, reader: TreeReader): Promise<Map<string, Source>> {
  const out = new Map<string, Source>();
  const text = await reader.read(file);
  if (text === null || !/argoproj\.io\//.test(text)) return out;
  const lines = text.split('\n');
  for (const obj of loadObjects(text).objects) {
    if (!jsonText(obj.apiVersion).startsWith('argoproj.io/') || jsonText(obj.kind) !== 'Application') continue;
    const name = isObject(obj.metadata) ? jsonText(obj.metadata.name) : '';
    const spec = isObject(obj.spec) ? obj.spec : {};
    const list: Json[] = Array.isArray(spec.sources) ? spec.sources : isObject(spec.source) ? [spec.source] : [];
    list.forEach((s, i) => {
      if (!isObject(s) || typeof s.path !== 'string' || s.chart !== undefined || s.helm !== undefined) return;
      const path = normal(s.path);
      if (path === null) return;
      const kustomize = isObject(s.kustomize) ? s.kustomize : null;
      const directory = isObject(s.directory) ? s.directory : null;
      const row = lines.findIndex((l) => new RegExp(`^\\s*(?:-\\s+)?path:\\s*["']?${escape(s.path as string)}["']?\\s*$`).test(l));
      out.set(`Application/${name}#${String(i)}`, {
        key: `Application/${name}#${String(i)}`,
        path,
        repoURL: jsonText(s.repoURL),
        spec: JSON.stringify([path, s.repoURL ?? null, s.targetRevision ?? null, kustomize, directory, s.plugin ?? null]),
        kustomize,
        directory,
        plugin: s.plugin !== undefined,
        line: row < 0 ? 1 : row + 1,
      });
    });
  }
  return out;
}

/** What the source applies at one side, read by every parser (through kustomize where the folder is a kustomization). */
async function applied(source: Source, reader: TreeReader, io: ArgoAppliedIo, parsers: readonly CapacityParser[]): Promise<Out> {
  const listing = await io.list(source.path);
  // A folder holding a chart is rendered by Helm, not applied as manifests.
  if (listing.includes(join(source.path, 'Chart.yaml'))) return empty();
  const kfile = KUSTOMIZATION_NAMES.map((n) => join(source.path, n)).find((p) => listing.includes(p));
  const result: Out =
    kfile !== undefined ? await kustomized(source, reader, io, parsers) : await directory(source, reader, io, parsers, listing);
  // A config management plugin renders the folder its own way: what it makes of capacity there is not known.
  if (source.plugin && (result.decls.length > 0 || (result.unresolved ?? []).length > 0)) {
    result.notFollowed = [...(result.notFollowed ?? []), { file: source.path, line: null, reason: 'gitops-install', subject: 'plugin' }];
  }
  return result;
}

/** The folder's kustomization with the Application's `kustomize` options laid over it, rendered. */
async function kustomized(source: Source, reader: TreeReader, io: ArgoAppliedIo, parsers: readonly CapacityParser[]): Promise<Out> {
  const kustomize = parsers.find((p) => p.id === 'kustomize');
  if (kustomize?.parseSet === undefined) return empty();
  const k = source.kustomize ?? {};
  // Paths the Application gives are relative to its folder; the overlay sits one folder below it.
  const up = (p: Json) => (typeof p === 'string' && !/^[a-z]+:\/\//i.test(p) ? `../${p}` : p);
  const overlay: JsonObject = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: ['..'],
    ...(Array.isArray(k.components) ? { components: k.components.map(up) } : {}),
    ...(Array.isArray(k.patches)
      ? { patches: k.patches.map((p) => (isObject(p) && typeof p.path === 'string' ? { ...p, path: up(p.path) } : p)) }
      : {}),
    ...(typeof k.namePrefix === 'string' ? { namePrefix: k.namePrefix } : {}),
    ...(typeof k.nameSuffix === 'string' ? { nameSuffix: k.nameSuffix } : {}),
    ...(Array.isArray(k.replicas) ? { replicas: k.replicas.map(replica) } : {}),
  };
  const overlayPath = join(join(source.path, OVERLAY_DIR), 'kustomization.yaml');
  const files: SourceFile[] = [{ path: overlayPath, text: kubeStringify(overlay) }];
  const queue = [overlayPath];
  const seen = new Set(queue);
  // The files kustomizations list as `resources`: objects, read on their own too (patches are not).
  const resources = new Set<string>();
  while (queue.length > 0 && files.length < MAX_FILES) {
    const path = queue.shift() as string;
    const text = path === overlayPath ? (files[0]?.text ?? '') : await reader.read(path);
    if (text === null) continue;
    if (path !== overlayPath) files.push({ path, text });
    if (!isKustomizationPath(path)) continue;
    const read = readKustomization(path, text);
    if (!read.ok) continue;
    for (const ref of [...(read.value.spec.resources ?? []), ...(read.value.spec.bases ?? [])]) {
      const file = resolvePath(read.value.dir, ref);
      if (file !== null) resources.add(file);
    }
    for (const ref of kustomizationReferences(read.value)) {
      const file = await asFile(ref, io);
      if (file !== null && !seen.has(file)) {
        seen.add(file);
        queue.push(file);
      }
    }
  }
  const r = kustomize.parseSet(files);
  const gave = files.length >= MAX_FILES;
  // A resource that names GPUs no reader counts (a kind read nowhere) leaves the render's count short.
  const unread = files.filter((f) => resources.has(f.path)).flatMap((f) => unaccounted(f.path, f.text, parsers).notes);
  return {
    decls: r.decls,
    diagnostics: r.diagnostics,
    unresolved: r.unresolved ?? [],
    notFollowed: [
      ...(r.notFollowed ?? []),
      ...unread,
      ...(gave ? [{ file: source.path, line: null, reason: 'unscanned' as const, subject: `more than ${String(MAX_FILES)} files` }] : []),
    ],
  };
}

/**
 * One file read on its own: what the readers find, and what they leave unaccounted, named: its own
 * not-followed notes and the GPU names nothing read (the floor, as over a changed file).
 */
function unaccounted(path: string, text: string, parsers: readonly CapacityParser[]): { read: ParseOutcome; notes: Unfollowed[] } {
  const read = detectFile(
    path,
    text,
    parsers.filter((p) => p.parseSet === undefined),
  );
  const accounting: { spans: { from: number; to: number }[]; anchors: number[] } = { spans: [], anchors: [] };
  for (const a of accountedOf(read)) {
    if (a.file !== path) continue;
    if (a.object) accounting.anchors.push(a.from);
    else accounting.spans.push({ from: a.from, to: a.to });
  }
  const left = accountSignals(path, text, accounting satisfies FileAccounting).signals.filter((s) => s.by === null);
  const notes: Unfollowed[] = [...(read.notFollowed ?? [])];
  const [first] = left;
  if (first) notes.push({ file: path, line: first.line, reason: 'unaccounted-signal', subject: first.token });
  return { read, notes };
}

/** Argo CD's `kustomize.replicas` entries (`count` may be a string) as kustomize's. */
function replica(r: Json): Json {
  if (!isObject(r)) return r;
  const count = typeof r.count === 'string' && /^\d+$/.test(r.count) ? Number(r.count) : r.count;
  return { ...r, count: count ?? null };
}

/** A kustomization reference as a file: a folder's kustomization, or the file itself. */
async function asFile(ref: string, io: ArgoAppliedIo): Promise<string | null> {
  if (isKustomizationPath(ref)) return ref;
  const listing = await io.list(ref);
  const k = KUSTOMIZATION_NAMES.map((n) => join(ref, n)).find((p) => listing.includes(p));
  if (k !== undefined) return k;
  return listing.length > 0 ? null : ref;
}

/** A plain directory: its YAML and JSON manifests (and its folders', with `directory.recurse`). */
async function directory(
  source: Source,
  reader: TreeReader,
  io: ArgoAppliedIo,
  parsers: readonly CapacityParser[],
  listing: string[],
): Promise<Out> {
  const out: Out = { ...empty(), notFollowed: [] };
  const d = source.directory ?? {};
  const files = [...listing];
  if (d.recurse === true) {
    const queue = io.dirs ? [...(await io.dirs(source.path))] : [];
    let walked = 0;
    while (queue.length > 0) {
      if (++walked > MAX_DIRS) {
        out.notFollowed?.push({ file: source.path, line: null, reason: 'unscanned', subject: `more than ${String(MAX_DIRS)} folders` });
        break;
      }
      const dir = queue.shift() as string;
      files.push(...(await io.list(dir)));
      queue.push(...(io.dirs ? await io.dirs(dir) : []));
    }
  }
  // `include` and `exclude` globs pick among the files: which they keep is not worked out here.
  const picked = typeof d.include === 'string' || typeof d.exclude === 'string';
  for (const path of files.filter((p) => /\.(ya?ml|json)$/i.test(p)).slice(0, MAX_FILES)) {
    const text = await reader.read(path);
    if (text === null) continue;
    const { read: r, notes } = unaccounted(path, text, parsers);
    out.decls.push(...r.decls);
    out.unresolved?.push(...(r.unresolved ?? []));
    out.diagnostics.push(...r.diagnostics);
    out.notFollowed?.push(...notes);
    if (picked && (r.decls.length > 0 || (r.unresolved ?? []).length > 0))
      out.notFollowed?.push({ file: path, line: null, reason: 'gitops-install', subject: 'directory include/exclude' });
  }
  return out;
}

function normal(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
