import type { Severity } from '../../domain/index.js';
import { WHOLE_GPU_RESOURCES } from '../kit/gpu-resources.js';
import { isRemote, itemLine, KUSTOMIZATION_NAMES, readKustomization, resolvePath } from './kustomization.js';
import { dirOf } from '../kit/paths.js';
import type { Kustomization } from './kustomization.js';
import { applyJsonPatch, isObject, jsonText, strategicMerge } from './patch-apply.js';
import type { JsonObject } from './patch-apply.js';
import { capacityKindOf, collectPatches, gpuFieldsTouched, targetMatches } from './patches.js';
import type { Hit, Patch } from './patches.js';
import { loadObjects } from './patches.js';

/** One object of a kustomization's output, with what the kustomization did to it. */
export interface RenderedObject {
  obj: JsonObject;
  /** The `resources` entry of this kustomization that brought the object in. */
  entry: Hit;
  /** Defined in the kustomization's own directory, not taken from a base. */
  ownDir: boolean;
  /** This kustomization's patches that set the object's GPU fields, in order. */
  hits: Hit[];
  /** Built from a patch alone: why its base could not be read. */
  baseUnknown?: string;
  /** The resource file the object was loaded from, and its name there (before any rename). */
  origin?: { file: string; name: string };
}

export interface RenderNote {
  file: string;
  line: number;
  severity: Severity;
  message: string;
}

/** A capacity object patched in a way whose result cannot be known from the files read. */
interface RenderUnknown {
  file: string;
  line: number;
  kind: 'ClusterQueue' | 'NodePool' | 'Provisioner';
  name: string;
}

export interface Render {
  objects: RenderedObject[];
  notes: RenderNote[];
  unknown: RenderUnknown[];
  /** Inputs that could not be read (remote, or absent on this side). */
  missing: string[];
  /** The kustomizations and patch files read: their objects are only parts of the result. */
  sources: string[];
}

const MAX_DEPTH = 12;

/** What `kustomize build` would give for the capacity objects, as far as the files at hand tell. */
export function render(path: string, files: ReadonlyMap<string, string>, stack: readonly string[] = []): Render {
  const out: Render = { objects: [], notes: [], unknown: [], missing: [], sources: [path] };
  const text = files.get(path);
  if (text === undefined) return { ...out, missing: [path] };
  const read = readKustomization(path, text);
  if (!read.ok) {
    out.notes.push({
      file: path,
      line: read.line,
      severity: 'warning',
      message: `kustomization could not be read: ${read.why}; GPU capacity it patches is not computed`,
    });
    out.missing.push(path);
    return out;
  }
  const k = read.k;
  loadResources(k, files, [...stack, path], out);
  for (const patch of collectPatches(k, files, out.notes)) {
    out.sources.push(patch.hit.file);
    applyPatch(k, patch, out);
  }
  renameAll(k, out.objects);
  return out;
}

function loadResources(k: Kustomization, files: ReadonlyMap<string, string>, stack: readonly string[], out: Render): void {
  for (const field of ['resources', 'bases', 'components'] as const) {
    (k.spec[field] ?? []).forEach((ref, i) => {
      const entry: Hit = { file: k.path, line: itemLine(k, field, i) };
      const path = resolvePath(k.dir, ref);
      if (path === null) {
        out.missing.push(isRemote(ref) ? `${ref} (remote)` : ref);
        return;
      }
      const fileText = files.get(path);
      if (fileText !== undefined) {
        for (const obj of loadObjects(fileText)) {
          const name = (obj.metadata as JsonObject | undefined)?.name;
          out.objects.push({
            obj,
            entry,
            ownDir: dirOf(path) === k.dir,
            hits: [],
            ...(typeof name === 'string' ? { origin: { file: path, name } } : {}),
          });
        }
        return;
      }
      const sub = KUSTOMIZATION_NAMES.map((n) => (path === '' ? n : `${path}/${n}`)).find((p) => files.has(p));
      if (sub === undefined || stack.includes(sub) || stack.length > MAX_DEPTH) {
        out.missing.push(path);
        return;
      }
      const base = render(sub, files, stack);
      out.missing.push(...base.missing);
      out.sources.push(...base.sources);
      for (const o of base.objects) {
        out.objects.push({
          obj: o.obj,
          entry,
          ownDir: false,
          hits: [],
          ...(o.baseUnknown === undefined ? {} : { baseUnknown: o.baseUnknown }),
          ...(o.origin === undefined ? {} : { origin: o.origin }),
        });
      }
      // What the base could not compute stays unknown here, at the entry that brings it in.
      for (const u of base.unknown) out.unknown.push({ ...u, file: entry.file, line: entry.line });
    });
  }
}

function applyPatch(k: Kustomization, patch: Patch, out: Render): void {
  const matched = out.objects.filter((o) => targetMatches(o.obj, patch.target));
  const capacityTarget = patch.target.kind !== undefined && capacityKindOf(patch.target.kind, patch.target.group) !== null;
  for (const o of matched) {
    const kind = capacityKindOf(jsonText(o.obj.kind), jsonText(o.obj.apiVersion).split('/')[0]);
    const name = jsonText((o.obj.metadata as JsonObject | undefined)?.name) || '(unnamed)';
    const touches = kind !== null && gpuFieldsTouched(patch, kind);
    if (touches && (k.spec.openapi !== undefined || k.spec.mergeKeys !== undefined) && patch.type === 'smp') {
      out.notes.push({
        file: patch.hit.file,
        line: patch.hit.line,
        severity: 'warning',
        message: `${kind} ${name}: the kustomization sets openapi or mergeKeys, so lists in this patch may merge rather than replace; the GPU count after the patch is not computed`,
      });
      markUnknown(out, o, kind, name, patch.hit);
      continue;
    }
    if (patch.type === 'smp') {
      const merged = strategicMerge(o.obj, patch.content);
      if (merged === undefined || !isObject(merged)) {
        out.objects.splice(out.objects.indexOf(o), 1);
        continue;
      }
      o.obj = merged;
    } else {
      const result = applyJsonPatch(o.obj, patch.content);
      if (!result.ok || !isObject(result.value)) {
        if (kind !== null) {
          out.notes.push({
            file: patch.hit.file,
            line: patch.hit.line,
            severity: 'warning',
            message: `${kind} ${name}: the JSON patch does not apply (${result.ok ? 'not an object' : result.why}); the GPU count after the patch is unknown`,
          });
          markUnknown(out, o, kind, name, patch.hit);
        }
        continue;
      }
      o.obj = result.value;
    }
    if (touches) o.hits.push(patch.hit);
  }
  if (matched.length > 0 || !capacityTarget || patch.target.name === undefined) return;
  const kind = capacityKindOf(patch.target.kind ?? '', patch.target.group);
  if (kind === null || !gpuFieldsTouched(patch, kind)) return;
  const base = out.missing.length > 0 ? out.missing.join(', ') : 'no resource of this kustomization';
  if (patch.type === 'smp' && out.missing.length > 0 && decidesAlone(patch.content, kind)) {
    // The base is out of reach; what the patch says alone may still decide the GPU count.
    out.objects.push({
      obj: withIdentity(patch.content, kind, patch.target.name),
      entry: patch.hit,
      ownDir: false,
      hits: [patch.hit],
      baseUnknown: base,
    });
    return;
  }
  out.notes.push({
    file: patch.hit.file,
    line: patch.hit.line,
    severity: 'warning',
    message: `${kind} ${patch.target.name}: this patch changes its GPU ${kind === 'ClusterQueue' ? 'quota' : 'limit'}, but its base (${base}) could not be read, so the GPU count after the patch is unknown`,
  });
  out.unknown.push({ file: patch.hit.file, line: patch.hit.line, kind, name: patch.target.name });
}

/**
 * A ClusterQueue patch replaces `resourceGroups` whole (custom resources have no merge keys), so
 * it states every quota; a NodePool patch that sets a GPU limit states the pool's ceiling. Any
 * other patch needs its base to be counted.
 */
function decidesAlone(content: JsonObject, kind: RenderUnknown['kind']): boolean {
  const spec = isObject(content.spec) ? content.spec : {};
  if (kind === 'ClusterQueue') return Array.isArray(spec.resourceGroups);
  const limits = kind === 'NodePool' ? spec.limits : isObject(spec.limits) ? spec.limits.resources : undefined;
  return isObject(limits) && WHOLE_GPU_RESOURCES.some((r) => r in limits) && spec.replicas === undefined;
}

function markUnknown(out: Render, o: RenderedObject, kind: RenderUnknown['kind'], name: string, hit: Hit): void {
  out.objects.splice(out.objects.indexOf(o), 1);
  out.unknown.push({ file: hit.file, line: hit.line, kind, name });
}

function withIdentity(content: JsonObject, kind: RenderUnknown['kind'], name: string): JsonObject {
  const apiVersion =
    typeof content.apiVersion === 'string' ? content.apiVersion : kind === 'ClusterQueue' ? 'kueue.x-k8s.io/v1beta1' : 'karpenter.sh/v1';
  const metadata = isObject(content.metadata) ? content.metadata : {};
  return { ...content, apiVersion, kind, metadata: { ...metadata, name } };
}

/** namePrefix / nameSuffix rename every object, ClusterQueues and NodePools included. */
function renameAll(k: Kustomization, objects: RenderedObject[]): void {
  const { namePrefix = '', nameSuffix = '' } = k.spec;
  if (namePrefix === '' && nameSuffix === '') return;
  for (const o of objects) {
    const meta = o.obj.metadata;
    if (!isObject(meta) || typeof meta.name !== 'string') continue;
    o.obj = { ...o.obj, metadata: { ...meta, name: `${namePrefix}${meta.name}${nameSuffix}` } };
  }
}
