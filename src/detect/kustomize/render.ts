import { WHOLE_GPU_RESOURCES } from '../kit/gpu-resources.js';
import { dirOf } from '../kit/paths.js';
import { capacityFields, touchesCapacity } from './capacity-fields.js';
import { isRemote, itemLine, KUSTOMIZATION_NAMES, resolvePath } from './kustomization.js';
import type { Kustomization, PatchTarget } from './kustomization.js';
import { applyJsonPatch, isObject, jsonText, strategicMerge } from './patch-apply.js';
import type { JsonObject } from './patch-apply.js';
import { ObjectIndex } from './object-index.js';
import { collectPatches, replacementSources, targetMatches, targetProblem } from './patches.js';
import type { Hit, Patch } from './patches.js';
import { replicaFieldSpecs } from './replicas.js';
import type { Sources } from './sources.js';
import type { RenderNote } from './render-note.js';

/** One object of a kustomization's output, with what the kustomization did to it. */
export interface RenderedObject {
  obj: JsonObject;
  /** The `resources` (or `components`) entry of this kustomization that brought the object in. */
  entry: Hit;
  /** Defined in the kustomization's own directory, not taken from a base. */
  ownDir: boolean;
  /** This kustomization's patches (and `replicas` entries) that set the object's GPU fields, in order. */
  hits: Hit[];
  /** Built from a patch alone: why its base could not be read. */
  baseUnknown?: string;
  /** The resource file the object was loaded from, and its name there (before any rename). */
  origin?: { file: string; name: string };
  /** A patch whose effect could not be worked out: what the object declares after it is unknown. */
  unknownAt?: Hit;
  /**
   * `replacements` write its GPU fields from other objects, which are not computed: what they are
   * given (this object as its resources have it, the source objects or values), and the files
   * those come from, so a change to any of them is not followed.
   */
  replacedFrom?: { inputs: unknown[]; files: string[] };
}

export interface Render {
  objects: RenderedObject[];
  notes: RenderNote[];
  /** Inputs that could not be read (remote, or absent on this side). */
  missing: string[];
  /** The kustomizations and patch files read: their objects are only parts of the result. */
  sources: string[];
  /** The build would fail, or the render went past its budget: what it declares is unknown. */
  failed?: { file: string; line: number; why: string };
}

/** Tells whether an object (a patch's content, given the target's identity) is one a reader counts. */
export type IsCapacity = (obj: JsonObject) => boolean;

const MAX_DEPTH = 12;

/**
 * What one render may do: patch applications weighted by the size of each patch, and objects held.
 * A kustomization of thousands of patches renders in a fraction of this; past it the render stops
 * and the kustomization is not followed, so no file can hold the parser for long.
 */
export const RENDER_BUDGET = { steps: 400_000, objects: 20_000 } as const;

interface Budget {
  steps: number;
  objects: number;
}

/** What `kustomize build` would give, as far as the files at hand tell. */
export function render(path: string, sources: Sources, isCapacity: IsCapacity): Render {
  const budget: Budget = { steps: 0, objects: 0 };
  return renderOne(path, sources, isCapacity, [], budget, []);
}

function renderOne(
  path: string,
  sources: Sources,
  isCapacity: IsCapacity,
  stack: readonly string[],
  budget: Budget,
  input: readonly RenderedObject[],
): Render {
  const out: Render = { objects: [...input], notes: [], missing: [], sources: [path] };
  const read = sources.kustomization(path);
  if (read === undefined) return { ...out, missing: [path] };
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
  const ctx: Ctx = { k, sources, isCapacity, stack: [...stack, path], budget, out, index: new ObjectIndex([]) };
  loadResources(ctx);
  loadComponents(ctx);
  ctx.index = new ObjectIndex(out.objects);
  if (out.failed === undefined) {
    spend(ctx, out.objects.length, 0, { file: path, line: 1 });
    const { beforeRename, afterRename } = collectPatches(k, sources.files, out.notes);
    applyPatches(ctx, beforeRename);
    // namePrefix and nameSuffix come between `patches` and `patchesJson6902` in kustomize's order.
    renameAll(ctx);
    applyPatches(ctx, afterRename);
    out.objects = ctx.index.all();
  }
  if (out.failed === undefined) applyReplicas(ctx);
  markReplacements(ctx);
  if (k.spec.helmCharts !== undefined && k.spec.helmCharts.length > 0) {
    out.notes.push({
      file: path,
      line: itemLine(k, 'helmCharts', 0),
      severity: 'info',
      message:
        'objects this kustomization generates from Helm charts (helmCharts) are read where the chart is a folder of this repository (rendered on its own, without the kustomization), not in this render',
    });
  }
  return out;
}

interface Ctx {
  k: Kustomization;
  sources: Sources;
  isCapacity: IsCapacity;
  stack: readonly string[];
  budget: Budget;
  out: Render;
  /** The objects as patches find them: out.objects while patches apply. */
  index: ObjectIndex<RenderedObject>;
}

function spend(ctx: Ctx, steps: number, objects: number, at: Hit): boolean {
  const b = ctx.budget;
  b.steps += steps;
  b.objects += objects;
  if (b.steps <= RENDER_BUDGET.steps && b.objects <= RENDER_BUDGET.objects) return true;
  ctx.out.failed ??= {
    file: at.file,
    line: at.line,
    why:
      b.objects > RENDER_BUDGET.objects
        ? `its build holds more than ${RENDER_BUDGET.objects.toLocaleString('en-US')} objects`
        : `its patches take more than ${RENDER_BUDGET.steps.toLocaleString('en-US')} steps to apply (patches × objects they match × their size)`,
  };
  return false;
}

/** `resources` (and legacy `bases`): files read as they are, directories rendered on their own. */
function loadResources(ctx: Ctx): void {
  const { k, out } = ctx;
  for (const field of ['resources', 'bases'] as const) {
    (k.spec[field] ?? []).forEach((ref, i) => {
      if (out.failed !== undefined) return;
      const entry: Hit = { file: k.path, line: itemLine(k, field, i) };
      const path = resolvePath(k.dir, ref);
      if (path === null) {
        out.missing.push(isRemote(ref) ? `${ref} (remote)` : ref);
        return;
      }
      const loaded = ctx.sources.objects(path);
      if (loaded !== undefined) {
        for (const p of loaded.problems) {
          out.notes.push({
            file: path,
            line: p.line,
            severity: 'error',
            message: `kustomize cannot build with this file (${p.message}); what its objects declare is not known`,
          });
        }
        if (!spend(ctx, loaded.objects.length, loaded.objects.length, entry)) return;
        for (const obj of loaded.objects) {
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
      const base = renderDirectory(ctx, path, []);
      if (base === null) return;
      for (const o of base.objects) {
        out.objects.push({
          obj: o.obj,
          entry,
          ownDir: false,
          hits: [],
          ...(o.baseUnknown === undefined ? {} : { baseUnknown: o.baseUnknown }),
          ...(o.origin === undefined ? {} : { origin: o.origin }),
          // What the base could not compute stays unknown here, at the entry that brings it in.
          ...(o.unknownAt === undefined ? {} : { unknownAt: entry }),
        });
      }
    });
  }
}

/**
 * `components`: a Component adds its resources to what the kustomization has so far and applies
 * its patches to all of it (kustomize's accumulateComponents), so it is rendered over them.
 */
function loadComponents(ctx: Ctx): void {
  const { k, out } = ctx;
  (k.spec.components ?? []).forEach((ref, i) => {
    if (out.failed !== undefined) return;
    const entry: Hit = { file: k.path, line: itemLine(k, 'components', i) };
    const path = resolvePath(k.dir, ref);
    if (path === null) {
      out.missing.push(isRemote(ref) ? `${ref} (remote)` : ref);
      return;
    }
    const before = new Set(out.objects);
    const c = renderDirectory(ctx, path, out.objects);
    if (c === null) return;
    out.objects = c.objects.map((o) => (before.has(o) ? o : { ...o, entry, ownDir: false }));
  });
}

/** A directory's kustomization rendered over `input`; its notes and failures become this render's. */
function renderDirectory(ctx: Ctx, path: string, input: readonly RenderedObject[]): Render | null {
  const { out } = ctx;
  const sub = KUSTOMIZATION_NAMES.map((n) => (path === '' ? n : `${path}/${n}`)).find((p) => ctx.sources.has(p));
  if (sub === undefined || ctx.stack.includes(sub) || ctx.stack.length > MAX_DEPTH) {
    out.missing.push(path);
    return null;
  }
  const r = renderOne(sub, ctx.sources, ctx.isCapacity, ctx.stack, ctx.budget, input);
  out.missing.push(...r.missing);
  out.sources.push(...r.sources);
  out.notes.push(...r.notes);
  if (r.failed !== undefined) out.failed ??= r.failed;
  return r;
}

function groupOf(obj: JsonObject): string {
  const apiVersion = jsonText(obj.apiVersion);
  return apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
}

export function nameOf(obj: JsonObject): string {
  return jsonText((obj.metadata as JsonObject | undefined)?.name) || '(unnamed)';
}

function applyPatches(ctx: Ctx, patches: readonly Patch[]): void {
  for (const patch of patches) {
    if (ctx.out.failed !== undefined) return;
    ctx.out.sources.push(patch.hit.file);
    const problem = targetProblem(patch.target);
    if (problem !== null) ctx.out.failed = { ...patch.hit, why: `${problem}, so what the patch selects is not known` };
    else applyPatch(ctx, patch);
  }
}

function applyPatch(ctx: Ctx, patch: Patch): void {
  const { k, out } = ctx;
  const { objects: matched, scanned } = ctx.index.select(patch.target);
  if (!spend(ctx, 1 + scanned + matched.length * patch.cost, 0, patch.hit)) return;
  for (const o of matched) {
    const kind = jsonText(o.obj.kind);
    const touches = touchesCapacity(patch.paths, kind, groupOf(o.obj));
    if (touches && (k.spec.openapi !== undefined || k.spec.mergeKeys !== undefined) && patch.type === 'smp') {
      out.notes.push({
        file: patch.hit.file,
        line: patch.hit.line,
        severity: 'warning',
        message: `${kind} ${nameOf(o.obj)}: the kustomization sets openapi or mergeKeys, so lists in this patch may merge rather than replace; the GPU count after the patch is not computed`,
      });
      o.unknownAt = patch.hit;
      continue;
    }
    if (patch.type === 'smp') {
      const merged = strategicMerge(o.obj, patch.content);
      if (merged === undefined || !isObject(merged)) {
        ctx.index.remove(o);
        continue;
      }
      o.obj = merged;
      ctx.index.update(o);
    } else {
      const result = applyJsonPatch(o.obj, patch.content);
      if (!result.ok || !isObject(result.value)) {
        if (touches || ctx.isCapacity(o.obj)) {
          out.notes.push({
            file: patch.hit.file,
            line: patch.hit.line,
            severity: 'warning',
            message: `${kind} ${nameOf(o.obj)}: the JSON patch does not apply (${result.ok ? 'not an object' : result.why}); the GPU count after the patch is unknown`,
          });
          o.unknownAt = patch.hit;
        }
        continue;
      }
      o.obj = result.value;
      ctx.index.update(o);
    }
    if (touches) o.hits.push(patch.hit);
  }
  if (matched.length > 0 || patch.target.name === undefined || patch.target.kind === undefined) return;
  patchWithoutBase(ctx, patch, patch.target.kind, patch.target.name);
}

/** A patch for an object no resource of this kustomization holds: counted from the patch alone when it says everything, else unknown. */
function patchWithoutBase(ctx: Ctx, patch: Patch, kind: string, name: string): void {
  const { out } = ctx;
  const fields = capacityFields(kind, patch.target.group);
  const identity = withIdentity(patch.type === 'smp' ? patch.content : {}, kind, name, patch.target, fields?.groups[0]);
  if (fields === null && !ctx.isCapacity(identity)) return;
  if (!touchesCapacity(patch.paths, kind, patch.target.group)) return;
  const base = out.missing.length > 0 ? out.missing.join(', ') : 'no resource of this kustomization';
  if (patch.type === 'smp' && out.missing.length > 0 && decidesAlone(patch.content, kind)) {
    // The base is out of reach; what the patch says alone may still decide the GPU count.
    ctx.index.add({ obj: identity, entry: patch.hit, ownDir: false, hits: [patch.hit], baseUnknown: base });
    return;
  }
  out.notes.push({
    file: patch.hit.file,
    line: patch.hit.line,
    severity: 'warning',
    message: `${kind} ${name}: this patch changes its GPU ${fields?.noun ?? 'capacity'}, but its base (${base}) could not be read, so the GPU count after the patch is unknown`,
  });
  ctx.index.add({ obj: identity, entry: patch.hit, ownDir: false, hits: [patch.hit], unknownAt: patch.hit });
}

/**
 * A ClusterQueue patch replaces `resourceGroups` whole (custom resources have no merge keys), so
 * it states every quota; a NodePool patch that sets a GPU limit states the pool's ceiling. Any
 * other patch needs its base to be counted.
 */
function decidesAlone(content: JsonObject, kind: string): boolean {
  const spec = isObject(content.spec) ? content.spec : {};
  if (kind === 'ClusterQueue') return Array.isArray(spec.resourceGroups);
  if (kind !== 'NodePool' && kind !== 'Provisioner') return false;
  const limits = kind === 'NodePool' ? spec.limits : isObject(spec.limits) ? spec.limits.resources : undefined;
  return isObject(limits) && WHOLE_GPU_RESOURCES.some((r) => r in limits) && spec.replicas === undefined;
}

const DEFAULT_VERSIONS: Record<string, string> = {
  'kueue.x-k8s.io': 'v1beta1',
  'karpenter.sh': 'v1',
  'cluster.x-k8s.io': 'v1beta1',
};

function withIdentity(content: JsonObject, kind: string, name: string, target: PatchTarget, group: string | undefined): JsonObject {
  const g = target.group ?? group ?? '';
  const version = target.version ?? DEFAULT_VERSIONS[g] ?? 'v1';
  const apiVersion = typeof content.apiVersion === 'string' ? content.apiVersion : g === '' ? version : `${g}/${version}`;
  const metadata = isObject(content.metadata) ? content.metadata : {};
  return { ...content, apiVersion, kind, metadata: { ...metadata, name } };
}

/**
 * `replicas`: kustomize sets `spec/replicas` of the named Deployments, StatefulSets, ReplicaSets
 * and ReplicationControllers, and of kinds the kustomization's `configurations` add field specs
 * for (a MachineDeployment, a static NodePool); a name that matches none fails the build.
 */
function applyReplicas(ctx: Ctx): void {
  const { k, out } = ctx;
  const entries = k.spec.replicas ?? [];
  if (entries.length === 0) return;
  const { specs, incomplete } = replicaFieldSpecs(k, ctx.sources.files, out.notes);
  entries.forEach((entry, i) => {
    const hit: Hit = { file: k.path, line: itemLine(k, 'replicas', i) };
    let found = false;
    for (const spec of specs) {
      for (const o of ctx.index.named(spec.kind, entry.name)) {
        if (spec.group !== undefined && groupOf(o.obj) !== spec.group) continue;
        found = true;
        const result = applyJsonPatch(o.obj, [{ op: 'add', path: `/${spec.path}`, value: entry.count }]);
        if (result.ok && isObject(result.value)) {
          o.obj = result.value;
          if (touchesCapacity([`/${spec.path}`], spec.kind, groupOf(o.obj))) o.hits.push(hit);
        } else o.unknownAt = hit;
      }
    }
    if (found) return;
    if (incomplete || out.missing.length > 0) {
      // A configuration not read, or a base not read, may make this entry scale a capacity object.
      for (const o of ctx.index.withName(entry.name)) if (ctx.isCapacity(o.obj)) o.unknownAt = hit;
      return;
    }
    out.failed ??= {
      file: k.path,
      line: hit.line,
      why: `replicas names ${entry.name}, which matches no object kustomize scales (${specs.map((s) => s.kind).join(', ')}), so kustomize build fails`,
    };
  });
}

/** `replacements` copy fields from one object into others: a capacity field they write is not computed. */
function markReplacements(ctx: Ctx): void {
  const { k, out } = ctx;
  (k.spec.replacements ?? []).forEach((r, i) => {
    const hit: Hit = { file: k.path, line: itemLine(k, 'replacements', i) };
    const targets = isObject(r) && Array.isArray(r.targets) ? r.targets : null;
    // Each replacement looks at every object for each of its targets.
    if (!spend(ctx, out.objects.length * (targets?.length ?? 1), 0, hit)) return;
    for (const o of out.objects) {
      const selected =
        targets === null ||
        targets.some((t) => {
          const select = isObject(t) && isObject(t.select) ? t.select : {};
          const target: PatchTarget = {};
          for (const key of ['kind', 'name', 'group', 'version', 'namespace'] as const)
            if (typeof select[key] === 'string') target[key] = select[key];
          const paths = isObject(t) && Array.isArray(t.fieldPaths) ? t.fieldPaths.map((p) => `/${jsonText(p).replace(/\./g, '/')}`) : [''];
          return targetMatches(o.obj, target) && touchesCapacity(paths, jsonText(o.obj.kind), groupOf(o.obj));
        });
      if (!selected || !ctx.isCapacity(o.obj)) continue;
      o.unknownAt = hit;
      const from = o.replacedFrom ?? { inputs: [o.obj], files: [hit.file, o.origin?.file ?? o.entry.file] };
      for (const source of replacementSources(r, out.objects)) {
        from.inputs.push(source.obj);
        from.files.push(source.origin?.file ?? source.entry.file);
      }
      if (isObject(r) && r.sourceValue !== undefined) from.inputs.push(r.sourceValue);
      o.replacedFrom = from;
      out.notes.push({
        file: hit.file,
        line: hit.line,
        severity: 'warning',
        message: `${jsonText(o.obj.kind)} ${nameOf(o.obj)}: replacements write its GPU fields from another object; the GPU count is not computed`,
      });
    }
  });
}

/** namePrefix / nameSuffix rename every object, capacity objects included. */
function renameAll(ctx: Ctx): void {
  const { namePrefix = '', nameSuffix = '' } = ctx.k.spec;
  if (namePrefix === '' && nameSuffix === '') return;
  for (const o of ctx.index.all()) {
    const meta = o.obj.metadata;
    if (!isObject(meta) || typeof meta.name !== 'string') continue;
    o.obj = { ...o.obj, metadata: { ...meta, name: `${namePrefix}${meta.name}${nameSuffix}` } };
    ctx.index.update(o);
  }
}
