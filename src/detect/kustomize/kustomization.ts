import { fail, ok, type Result } from '../../domain/result.js';
import { LineCounter } from 'yaml';
import { readYaml, toJson } from '../kit/kube-yaml.js';
import { z } from 'zod';
import { mapGet, nodeLine, seqItems } from '../kit/yaml-nodes.js';
import { dirOf } from '../kit/paths.js';

/** The file names kustomize looks for in a directory, in its order. */
export const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

export function isKustomizationPath(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return (KUSTOMIZATION_NAMES as readonly string[]).includes(base);
}

const Target = z.object({
  group: z.string().optional(),
  version: z.string().optional(),
  kind: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  labelSelector: z.string().optional(),
  annotationSelector: z.string().optional(),
});
export type PatchTarget = z.infer<typeof Target>;

const Paths = z.array(z.string()).optional();

/** The fields of a kustomization that decide what its capacity objects become. */
const KustomizationSchema = z.object({
  // `Component` (kustomize.config.k8s.io/v1alpha1): built only through a kustomization that lists it in `components`.
  kind: z.string().optional(),
  resources: Paths,
  bases: Paths,
  components: Paths,
  patches: z.array(z.object({ path: z.string().optional(), patch: z.string().optional(), target: Target.optional() })).optional(),
  patchesStrategicMerge: Paths,
  patchesJson6902: z.array(z.object({ target: Target, path: z.string().optional(), patch: z.string().optional() })).optional(),
  namePrefix: z.string().optional(),
  nameSuffix: z.string().optional(),
  replicas: z.array(z.object({ name: z.string(), count: z.number().int() })).optional(),
  // Transformer configurations: their `replicas` field specs extend where `replicas` applies.
  configurations: Paths,
  // Copy fields between objects (replacements.ts), inline or from a file (`path`).
  replacements: z.array(z.unknown()).optional(),
  // `$(VAR)` references substituted from other objects' fields: in a capacity object, not computed.
  vars: z.array(z.unknown()).optional(),
  // Objects generated from charts are not rendered.
  helmCharts: z.array(z.unknown()).optional(),
  // Merge keys for custom resources change how lists merge: results are then not computed.
  openapi: z.unknown().optional(),
  mergeKeys: z.unknown().optional(),
});
type KustomizationSpec = z.infer<typeof KustomizationSchema>;

export interface Kustomization {
  path: string;
  dir: string;
  text: string;
  lc: LineCounter;
  root: unknown;
  spec: KustomizationSpec;
}

/** Why a kustomization file is not read, at the line that says so. */
type KustomizationProblem = { line: number; why: string };
export type KustomizationRead = Result<Kustomization, KustomizationProblem>;

/** The kinds kustomize builds from a kustomization file (types.Kustomization.EnforceFields). */
const KUSTOMIZATION_KINDS = new Set(['Kustomization', 'Component']);

export function readKustomization(path: string, text: string): KustomizationRead {
  const lc = new LineCounter();
  const docs = readYaml(text, lc, { dialect: 'kustomize' });
  const [doc = { contents: null, errors: [], rejections: [] }] = docs;
  const first = doc.errors[0] ?? doc.rejections[0];
  if (first) return fail({ line: lc.linePos(first.pos[0]).line, why: `YAML could not be read (${first.message.split('\n')[0] ?? ''})` });
  // kustomize decodes the file with sigs.k8s.io/yaml, which reads its first document only: a
  // stream whose later documents hold anything (the first one null, or a second kustomization)
  // builds something other than what the file says, so it is not read as either.
  const later = docs.slice(1).find((d) => d.errors.length > 0 || (d.contents !== null && toJson(d.contents) !== null));
  if (later)
    return fail({
      line: lc.linePos(later.range[0]).line,
      why: 'kustomize reads only the first YAML document of a kustomization file, and this one holds another',
    });
  const parsed = KustomizationSchema.safeParse(toJson(doc.contents) ?? {});
  // A `List` (or any other kind) is refused by kustomize, not unwrapped: read as empty, its
  // resources and patches would silently drop out of the render.
  if (parsed.success && parsed.data.kind !== undefined && !KUSTOMIZATION_KINDS.has(parsed.data.kind))
    return fail({
      line: nodeLine(mapGet(doc.contents, 'kind'), lc) ?? 1,
      why: `kind ${parsed.data.kind}: kustomize builds only a Kustomization or a Component`,
    });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    const node = typeof key === 'string' ? mapGet(doc.contents, key) : undefined;
    return fail({ line: nodeLine(node, lc) ?? 1, why: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'unexpected shape'}` });
  }
  return ok({ path, dir: dirOf(path), text, lc, root: doc.contents, spec: parsed.data });
}

/** Line of item `i` of a list field, for messages. */
export function itemLine(k: Kustomization, field: string, i: number): number {
  const list = mapGet(k.root, field);
  return nodeLine(seqItems(list)[i], k.lc) ?? nodeLine(list, k.lc) ?? 1;
}

/** A URL or go-getter reference: fetched by kustomize, not in the repository. */
export function isRemote(ref: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(ref) ||
    /^(?:github\.com|gitlab\.com|bitbucket\.org)\//.test(ref) ||
    ref.includes('?ref=') ||
    ref.startsWith('git@')
  );
}

/** `ref` relative to `dir` as a repository path; null when it leaves the repository or is remote. */
export function resolvePath(dir: string, ref: string): string | null {
  if (isRemote(ref) || ref.startsWith('/')) return null;
  const parts = dir === '' ? [] : dir.split('/');
  for (const part of ref.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return parts.join('/');
}

/** An inline patch in `patchesStrategicMerge` is YAML text; a path is one line without a colon. */
export function isInlinePatch(entry: string): boolean {
  return entry.includes('\n') || /:\s/.test(entry);
}

/** The repository paths a kustomization reads: its resources (files, or directories' kustomizations) and patch files. */
export function kustomizationReferences(k: Kustomization): string[] {
  const out: string[] = [];
  const { spec } = k;
  for (const ref of [...(spec.resources ?? []), ...(spec.bases ?? []), ...(spec.components ?? [])]) {
    const path = resolvePath(k.dir, ref);
    if (path === null) continue;
    if (/\.(ya?ml|json)$/i.test(path)) out.push(path);
    else out.push(...KUSTOMIZATION_NAMES.map((n) => (path === '' ? n : `${path}/${n}`)));
  }
  out.push(...patchReferences(k));
  // Transformer configurations, and replacement files (`replacements: [{path: r.yaml}]`).
  const replacementFiles = (spec.replacements ?? []).flatMap((r) =>
    typeof r === 'object' && r !== null && 'path' in r && typeof r.path === 'string' ? [r.path] : [],
  );
  for (const ref of [...(spec.configurations ?? []), ...replacementFiles]) {
    const path = resolvePath(k.dir, ref);
    if (path !== null) out.push(path);
  }
  return [...new Set(out)];
}

/** The repository paths of a kustomization's patch files. */
export function patchReferences(k: Kustomization): string[] {
  const { spec } = k;
  const refs = [
    ...(spec.patches ?? []).map((p) => p.path),
    ...(spec.patchesJson6902 ?? []).map((p) => p.path),
    ...(spec.patchesStrategicMerge ?? []).filter((p) => !isInlinePatch(p)),
  ];
  return refs.map((ref) => (ref === undefined ? null : resolvePath(k.dir, ref))).filter((p): p is string => p !== null);
}
