import { WHOLE_GPU_RESOURCES } from '../kit/gpu-resources.js';
import { capacityFields, touchesCapacity } from './capacity-fields.js';
import { itemLine } from './kustomization.js';
import type { PatchTarget } from './kustomization.js';
import { applyJsonPatch, isObject, jsonText, strategicMerge } from './patch-apply.js';
import type { JsonObject } from './patch-apply.js';
import { targetProblem } from './patches.js';
import type { Hit, Patch } from './patches.js';
import { spend } from './render-context.js';
import type { Ctx } from './render-context.js';
import { replicaFieldSpecs } from './replicas.js';

/**
 * What a kustomization does to the objects it loaded, in kustomize's order: patches, namePrefix and
 * nameSuffix, `replicas`; `replacements.ts` applies `replacements` last. `render.ts` loads the
 * objects and calls these in turn.
 */

export function groupOf(obj: JsonObject): string {
  const apiVersion = jsonText(obj.apiVersion);
  return apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
}

export function nameOf(obj: JsonObject): string {
  return jsonText((obj.metadata as JsonObject | undefined)?.name) || '(unnamed)';
}

export function applyPatches(ctx: Ctx, patches: readonly Patch[]): void {
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
      const merged = strategicMerge(o.obj, asPatchOf(patch.content, o.obj));
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
            message: `${kind} ${nameOf(o.obj)}: the JSON patch does not apply (${result.ok ? 'not an object' : result.error}); the GPU count after the patch is unknown`,
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
  if (matched.length > 0) return;
  if (patch.target.name !== undefined && patch.target.kind !== undefined) {
    patchWithoutBase(ctx, patch, patch.target.kind, patch.target.name);
    return;
  }
  // A patch selecting by kind, label or pattern alone, with a resource out of reach (remote, not in
  // the tree, or past the depth followed): what it selects there is not known, so neither is the
  // GPU count it may set.
  if (out.missing.length > 0 && mayPatchCapacity(ctx, patch)) {
    out.failed ??= {
      ...patch.hit,
      why: `this patch selects objects by ${patch.target.kind === undefined ? 'a selector without a kind' : `kind ${patch.target.kind} without a name`}, and resources it may select (${out.missing.slice(0, 3).join(', ')}${out.missing.length > 3 ? ', …' : ''}) could not be read`,
    };
  }
}

/** Whether a patch that matched nothing may set GPU capacity on an object of its target's kind. */
function mayPatchCapacity(ctx: Ctx, patch: Patch): boolean {
  const { kind, group } = patch.target;
  if (kind === undefined) return touchesCapacity(patch.paths, '', group);
  const identity = withIdentity(
    patch.type === 'smp' ? patch.content : {},
    kind,
    '(selected)',
    patch.target,
    capacityFields(kind, group)?.groups[0],
  );
  if (capacityFields(kind, group) === null && !ctx.isCapacity(identity)) return false;
  return touchesCapacity(patch.paths, kind, group);
}

/**
 * A strategic-merge patch as kustomize applies it to one object it selects: with the object's
 * apiVersion, kind, name and namespace (PatchTransformer copies them onto the patch), so a patch
 * named `not-important` and selected by a target patches the object and does not rename it.
 */
function asPatchOf(content: JsonObject, obj: JsonObject): JsonObject {
  const own = isObject(obj.metadata) ? obj.metadata : {};
  const { name: _name, namespace: _namespace, ...meta } = isObject(content.metadata) ? content.metadata : {};
  const identity: JsonObject = {};
  for (const key of ['name', 'namespace'] as const) if (own[key] !== undefined) identity[key] = own[key];
  return {
    ...content,
    ...(obj.apiVersion !== undefined ? { apiVersion: obj.apiVersion } : {}),
    ...(obj.kind !== undefined ? { kind: obj.kind } : {}),
    metadata: { ...meta, ...identity },
  };
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
export function applyReplicas(ctx: Ctx): void {
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

/** namePrefix / nameSuffix rename every object, capacity objects included. */
export function renameAll(ctx: Ctx): void {
  const { namePrefix = '', nameSuffix = '' } = ctx.k.spec;
  if (namePrefix === '' && nameSuffix === '') return;
  for (const o of ctx.index.all()) {
    const meta = o.obj.metadata;
    if (!isObject(meta) || typeof meta.name !== 'string') continue;
    o.obj = { ...o.obj, metadata: { ...meta, name: `${namePrefix}${meta.name}${nameSuffix}` } };
    ctx.index.update(o);
  }
}
