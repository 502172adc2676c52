import { isMap, isScalar, isSeq, LineCounter, Scalar } from 'yaml';
import { readYaml, toJson } from '../kit/kube-yaml.js';
import { isGpuResource, isWholeGpuResource } from '../kit/gpu-resources.js';
import { mapGet, nodeLine, scalarString, seqItems } from '../kit/yaml-nodes.js';
import { isInlinePatch, itemLine, resolvePath } from './kustomization.js';
import type { Kustomization, PatchTarget } from './kustomization.js';
import { isObject, jsonText, pointerTokens } from './patch-apply.js';
import type { Json, JsonObject } from './patch-apply.js';
import type { RenderNote } from './render.js';

/** A place in a file. */
export interface Hit {
  file: string;
  line: number;
}

export type Patch =
  | { type: 'smp'; content: JsonObject; target: PatchTarget; hit: Hit; paths: string[] }
  | { type: 'json6902'; content: Json[]; target: PatchTarget; hit: Hit; paths: string[] };

export type CapacityObjectKind = 'ClusterQueue' | 'NodePool' | 'Provisioner';

/** The capacity kinds kustomize patches are followed for; null for any other kind. */
export function capacityKindOf(kind: string, group: string | undefined): CapacityObjectKind | null {
  if (kind === 'ClusterQueue' && (group === undefined || group === 'kueue.x-k8s.io')) return 'ClusterQueue';
  if ((kind === 'NodePool' || kind === 'Provisioner') && (group === undefined || group === 'karpenter.sh')) return kind;
  return null;
}

// Fields under `spec` that decide the GPU count of each kind.
const GPU_FIELDS: Record<CapacityObjectKind, readonly string[]> = {
  ClusterQueue: ['resourceGroups'],
  NodePool: ['limits', 'replicas', 'template'],
  Provisioner: ['limits', 'requirements'],
};

/** The patch sets a field the GPU count depends on (or replaces `spec` or the whole object). */
export function gpuFieldsTouched(patch: Patch, kind: CapacityObjectKind): boolean {
  return patch.paths.some(
    (p) => p === '' || p === '/spec' || GPU_FIELDS[kind].some((f) => p === `/spec/${f}` || p.startsWith(`/spec/${f}/`)),
  );
}

/** Objects of a resource file, as plain data. */
export function loadObjects(text: string): JsonObject[] {
  return readYaml(text, new LineCounter(), { dialect: 'kustomize', lists: true })
    .filter((d) => d.errors.length === 0)
    .map((d) => toJson(d.contents))
    .filter(isObject);
}

/** Kustomize target selection: kind, name (anchored regular expressions), group, version, equality label selectors. */
export function targetMatches(obj: JsonObject, target: PatchTarget): boolean {
  const [group, version] = splitApiVersion(jsonText(obj.apiVersion));
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  if (target.kind !== undefined && !anchored(target.kind, jsonText(obj.kind))) return false;
  if (target.name !== undefined && !anchored(target.name, jsonText(meta.name))) return false;
  if (target.group !== undefined && target.group !== group) return false;
  if (target.version !== undefined && target.version !== version) return false;
  if (target.namespace !== undefined && target.namespace !== (meta.namespace ?? '')) return false;
  if (target.labelSelector !== undefined && !selects(target.labelSelector, meta.labels)) return false;
  if (target.annotationSelector !== undefined && !selects(target.annotationSelector, meta.annotations)) return false;
  return true;
}

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

function anchored(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return pattern === value;
  }
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

/** The patches of a kustomization in kustomize's order: patchesStrategicMerge, patchesJson6902, patches. */
export function collectPatches(k: Kustomization, files: ReadonlyMap<string, string>, notes: RenderNote[]): Patch[] {
  const out: Patch[] = [];
  (k.spec.patchesStrategicMerge ?? []).forEach((entry, i) => {
    const source = sourceOf(k, files, notes, 'patchesStrategicMerge', i, isInlinePatch(entry) ? undefined : entry);
    if (source) out.push(...patchesIn(source, undefined));
  });
  (k.spec.patchesJson6902 ?? []).forEach((entry, i) => {
    const source = sourceOf(k, files, notes, 'patchesJson6902', i, entry.path);
    if (source) out.push(...patchesIn(source, entry.target));
  });
  (k.spec.patches ?? []).forEach((entry, i) => {
    const source = sourceOf(k, files, notes, 'patches', i, entry.path);
    if (source) out.push(...patchesIn(source, entry.target));
  });
  return out;
}

interface PatchSource {
  file: string;
  /** Text whose lines are the file's lines. */
  text: string;
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
    return { file: path, text, line: 1 };
  }
  const item = seqItems(mapGet(k.root, field))[i];
  const node = isScalar(item) ? item : mapGet(item, 'patch');
  if (!isScalar(node) || typeof node.value !== 'string') return null;
  const header = nodeLine(node, k.lc) ?? line;
  // A literal block's lines start after its `|` header; other styles are placed at the header.
  const pad = node.type === Scalar.BLOCK_LITERAL ? header : header - 1;
  return { file: k.path, text: '\n'.repeat(Math.max(0, pad)) + node.value, line };
}

function patchesIn(source: PatchSource, target: PatchTarget | undefined): Patch[] {
  const lc = new LineCounter();
  const docs = readYaml(source.text, lc, { dialect: 'kustomize' });
  const out: Patch[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) continue;
    const content = toJson(doc.contents);
    const hit: Hit = { file: source.file, line: gpuLine(doc.contents, lc) ?? nodeLine(doc.contents, lc) ?? source.line };
    if (Array.isArray(content)) {
      if (target === undefined) continue;
      const paths = content
        .map((op: unknown) => (isObject(op) && typeof op.path === 'string' ? op.path : ''))
        .filter((p) => pointerTokens(p) !== null);
      out.push({ type: 'json6902', content: content, target, hit, paths });
    } else if (isObject(content)) {
      const meta = isObject(content.metadata) ? content.metadata : {};
      const own: PatchTarget = {};
      if (typeof content.kind === 'string') own.kind = content.kind;
      if (typeof meta.name === 'string') own.name = meta.name;
      if (typeof content.apiVersion === 'string' && content.apiVersion.includes('/')) own.group = content.apiVersion.split('/')[0] ?? '';
      const spec = isObject(content.spec) ? content.spec : {};
      out.push({ type: 'smp', content, target: target ?? own, hit, paths: Object.keys(spec).map((key) => `/spec/${key}`) });
    }
  }
  return out;
}

/** The line of the GPU value a patch sets: a GPU nominalQuota, a GPU limit, replicas, or a JSON-patch value there. */
function gpuLine(root: unknown, lc: LineCounter): number | null {
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
      if (/nominalQuota|gpu|replicas/i.test(opPath)) found = nodeLine(mapGet(node, 'value'), lc) ?? nodeLine(node, lc);
      return;
    }
    const name = scalarString(mapGet(node, 'name'));
    if (name !== null && isGpuResource(name) && mapGet(node, 'nominalQuota') !== undefined) {
      found = nodeLine(mapGet(node, 'nominalQuota'), lc);
      return;
    }
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (isWholeGpuResource(key) || key === 'replicas') {
        found = nodeLine(pair.value, lc);
        return;
      }
      visit(pair.value);
    }
  };
  visit(root);
  return found;
}
