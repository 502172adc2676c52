import { isMap, isScalar, isSeq, LineCounter, Scalar } from 'yaml';
import { compilePattern } from './target-pattern.js';
import { readYaml, toJson } from '../kit/kube-yaml.js';
import { isGpuResource, isWholeGpuResource } from '../kit/gpu-resources.js';
import { mapGet, nodeLine, scalarString, seqItems } from '../kit/yaml-nodes.js';
import { isInlinePatch, itemLine, resolvePath } from './kustomization.js';
import type { Kustomization, PatchTarget } from './kustomization.js';
import { isObject, jsonText, pointerTokens } from './patch-apply.js';
import type { Json, JsonObject } from './patch-apply.js';
import type { RenderNote } from './render-note.js';

/** A place in a file. */
export interface Hit {
  file: string;
  line: number;
}

export type Patch =
  | { type: 'smp'; content: JsonObject; target: PatchTarget; hit: Hit; paths: string[]; cost: number }
  | { type: 'json6902'; content: Json[]; target: PatchTarget; hit: Hit; paths: string[]; cost: number };

/**
 * Objects of a resource file, as plain data, with the lines each spans; what kustomize would
 * refuse in it, by line.
 */
export function loadObjects(text: string): {
  objects: JsonObject[];
  spans: { from: number; to: number }[];
  problems: { line: number; message: string }[];
} {
  const lc = new LineCounter();
  const docs = readYaml(text, lc, { dialect: 'kustomize', lists: true });
  const problems = docs
    .flatMap((d) => [...d.errors, ...d.rejections])
    .map((p) => ({ line: lc.linePos(p.pos[0]).line, message: p.message.split('\n')[0] ?? '' }));
  const objects: JsonObject[] = [];
  const spans: { from: number; to: number }[] = [];
  for (const d of docs) {
    if (d.errors.length > 0) continue;
    const json = toJson(d.contents);
    if (!isObject(json)) continue;
    objects.push(json);
    spans.push({ from: lc.linePos(d.range[0]).line, to: lc.linePos(Math.max(d.range[0], d.range[1] - 1)).line });
  }
  return { objects, spans, problems: [...new Map(problems.map((p) => [`${p.line} ${p.message}`, p])).values()] };
}

const PATTERN_FIELDS = ['kind', 'name', 'group', 'version', 'namespace'] as const;

/**
 * Kustomize target selection: kind, name (the current or the original one), group, version and
 * namespace as anchored Go regular expressions, then label and annotation selectors.
 */
export function targetMatches(obj: JsonObject, target: PatchTarget, originalName?: string): boolean {
  const [group, version] = splitApiVersion(jsonText(obj.apiVersion));
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const values = { kind: jsonText(obj.kind), name: jsonText(meta.name), group, version, namespace: jsonText(meta.namespace) };
  for (const field of PATTERN_FIELDS) {
    const pattern = target[field];
    // An empty field selects everything, as in kustomize; a pattern that cannot be run selects nothing
    // here, and targetProblem has made the render fail before.
    if (pattern === undefined || pattern === '') continue;
    const compiled = compilePattern(pattern);
    if (!compiled.ok) return false;
    // kustomize selects by the name an object was loaded with or the one it has now (reswrangler.go).
    const matched = compiled.value(values[field]) || (field === 'name' && originalName !== undefined && compiled.value(originalName));
    if (!matched) return false;
  }
  if (target.labelSelector !== undefined && !selects(target.labelSelector, meta.labels)) return false;
  if (target.annotationSelector !== undefined && !selects(target.annotationSelector, meta.annotations)) return false;
  return true;
}

/** Why kustomize would not select with this target, or this reader cannot: null when it can. */
export function targetProblem(target: PatchTarget): string | null {
  for (const field of PATTERN_FIELDS) {
    const pattern = target[field];
    if (pattern === undefined || pattern === '') continue;
    const compiled = compilePattern(pattern);
    if (!compiled.ok) return `the patch target's ${field} ${JSON.stringify(pattern.slice(0, 80))} ${compiled.error}`;
  }
  return null;
}

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/** A kind or name pattern that is the name itself (no regular-expression characters). */
export function isLiteral(pattern: string): boolean {
  return !/[\\^$.*+?()[\]{}|]/.test(pattern);
}

/** `a=b,c!=d`, `key`, `!key`; set-based selectors (`in (…)`) select nothing here. */
function selects(selector: string, labels: Json | undefined): boolean {
  const map = isObject(labels) ? labels : {};
  return selector
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .every((req) => {
      const m = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(req);
      if (m) return m[2] === '!=' ? map[m[1] as string] !== m[3] : map[m[1] as string] === m[3];
      if (/^!\S+$/.test(req)) return !(req.slice(1) in map);
      if (/^\S+$/.test(req)) return req in map;
      return false;
    });
}

/**
 * The patches of a kustomization in kustomize's order (api/internal/target/kusttarget.go):
 * `patchesStrategicMerge` then `patches` before names are prefixed, `patchesJson6902` after.
 */
export function collectPatches(
  k: Kustomization,
  files: ReadonlyMap<string, string>,
  notes: RenderNote[],
): { beforeRename: Patch[]; afterRename: Patch[] } {
  const beforeRename: Patch[] = [];
  const afterRename: Patch[] = [];
  (k.spec.patchesStrategicMerge ?? []).forEach((entry, i) => {
    const source = sourceOf(k, files, notes, 'patchesStrategicMerge', i, isInlinePatch(entry) ? undefined : entry);
    if (source) beforeRename.push(...patchesIn(source, undefined, notes));
  });
  (k.spec.patches ?? []).forEach((entry, i) => {
    const source = sourceOf(k, files, notes, 'patches', i, entry.path);
    if (source) beforeRename.push(...patchesIn(source, entry.target, notes));
  });
  (k.spec.patchesJson6902 ?? []).forEach((entry, i) => {
    const source = sourceOf(k, files, notes, 'patchesJson6902', i, entry.path);
    if (source) afterRename.push(...patchesIn(source, entry.target, notes));
  });
  return { beforeRename, afterRename };
}

interface PatchSource {
  file: string;
  text: string;
  /** Lines of the file before the text's first line. */
  offset: number;
  line: number;
}

function sourceOf(
  k: Kustomization,
  files: ReadonlyMap<string, string>,
  notes: RenderNote[],
  field: string,
  i: number,
  ref: string | undefined,
): PatchSource | null {
  const line = itemLine(k, field, i);
  if (ref !== undefined) {
    const path = resolvePath(k.dir, ref);
    const text = path === null ? undefined : files.get(path);
    if (path === null || text === undefined) {
      notes.push({
        file: k.path,
        line,
        severity: 'info',
        message: `patch file ${ref} could not be read; a GPU quota or limit it sets is not seen`,
      });
      return null;
    }
    return { file: path, text, offset: 0, line: 1 };
  }
  const item = seqItems(mapGet(k.root, field))[i];
  const node = isScalar(item) ? item : mapGet(item, 'patch');
  if (!isScalar(node) || typeof node.value !== 'string') return null;
  const header = nodeLine(node, k.lc) ?? line;
  // A literal block's lines start after its `|` header; other styles are placed at the header.
  // The text is read on its own and its lines shifted: padding each of thousands of patches with
  // the lines before it would make reading them quadratic in the kustomization's length.
  const offset = node.type === Scalar.BLOCK_LITERAL ? header : header - 1;
  return { file: k.path, text: node.value, offset: Math.max(0, offset), line };
}

function patchesIn(source: PatchSource, target: PatchTarget | undefined, notes: RenderNote[]): Patch[] {
  const lc = new LineCounter();
  const docs = readYaml(source.text, lc, { dialect: 'kustomize' });
  const out: Patch[] = [];
  const at = (node: unknown) => {
    const line = nodeLine(node, lc);
    return line === null ? null : line + source.offset;
  };
  for (const doc of docs) {
    const problem = doc.errors[0] ?? doc.rejections[0];
    if (problem !== undefined) {
      notes.push({
        file: source.file,
        line: lc.linePos(problem.pos[0]).line + source.offset,
        severity: 'error',
        message: `kustomize cannot read this patch (${problem.message.split('\n')[0] ?? ''}); what it sets is not known`,
      });
      continue;
    }
    const content = toJson(doc.contents);
    const hit: Hit = { file: source.file, line: gpuLine(doc.contents, at) ?? at(doc.contents) ?? source.line };
    const cost = size(content);
    if (Array.isArray(content)) {
      if (target === undefined) continue;
      const paths = content
        .flatMap((op: unknown) => (isObject(op) ? [op.path, op.op === 'move' ? op.from : undefined] : []))
        .filter((p): p is string => typeof p === 'string' && pointerTokens(p) !== null);
      out.push({ type: 'json6902', content, target, hit, paths, cost });
    } else if (isObject(content)) {
      const meta = isObject(content.metadata) ? content.metadata : {};
      const own: PatchTarget = {};
      if (typeof content.kind === 'string') own.kind = content.kind;
      if (typeof meta.name === 'string') own.name = meta.name;
      if (typeof content.apiVersion === 'string' && content.apiVersion.includes('/')) own.group = content.apiVersion.split('/')[0] ?? '';
      out.push({ type: 'smp', content, target: target ?? own, hit, paths: smpPaths(content), cost });
    }
  }
  return out;
}

/** The fields a strategic-merge patch writes: `spec`'s keys one by one, other top-level fields whole. */
function smpPaths(content: JsonObject): string[] {
  const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  const out: string[] = [];
  for (const [key, value] of Object.entries(content)) {
    if (key === 'apiVersion' || key === 'kind' || key === '$patch') continue;
    if ((key === 'spec' || key === 'metadata') && isObject(value)) {
      for (const k of Object.keys(value)) out.push(`/${key}/${escape(k)}`);
    } else out.push(`/${escape(key)}`);
  }
  if (content.$patch === 'replace' || content.$patch === 'delete') out.push('');
  return out;
}

/** Nodes of a value: what applying it costs. */
function size(value: Json): number {
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + size(v), 1);
  if (isObject(value)) return Object.values(value).reduce<number>((n, v) => n + size(v), 1);
  return 1;
}

// Keys and JSON-patch paths that hold a GPU count or what multiplies it, across the capacity kinds.
const SIZE_KEYS = new Set([
  'replicas',
  'maxReplicas',
  'nodeCount',
  'initialNodeCount',
  'maxNodeCount',
  'totalMaxNodeCount',
  'count',
  'targetNodes',
  'maxNodes',
]);
const GPU_PATH = /nominalQuota|gpu|replicas|count|accelerator|instanceType|machineType|maxNodes|targetNodes|limits/i;

/** The line of the GPU value a patch sets: a GPU nominalQuota, a GPU limit, replicas, or a JSON-patch value there. */
function gpuLine(root: unknown, at: (node: unknown) => number | null): number | null {
  let found: number | null = null;
  const visit = (node: unknown): void => {
    if (found !== null) return;
    if (isSeq(node)) {
      for (const item of node.items) visit(item);
      return;
    }
    if (!isMap(node)) return;
    const opPath = scalarString(mapGet(node, 'path'));
    if (opPath !== null && mapGet(node, 'op') !== undefined) {
      if (GPU_PATH.test(opPath)) found = at(mapGet(node, 'value')) ?? at(node);
      return;
    }
    const name = scalarString(mapGet(node, 'name'));
    if (name !== null && isGpuResource(name) && mapGet(node, 'nominalQuota') !== undefined) {
      found = at(mapGet(node, 'nominalQuota'));
      return;
    }
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (isWholeGpuResource(key) || SIZE_KEYS.has(key)) {
        found = at(pair.value);
        return;
      }
      visit(pair.value);
    }
  };
  visit(root);
  return found;
}
