import { dirOf } from '../kit/paths.js';
import { isRemote, itemLine, KUSTOMIZATION_NAMES, resolvePath } from './kustomization.js';
import { ObjectIndex } from './object-index.js';
import type { JsonObject } from './patch-apply.js';
import { collectPatches } from './patches.js';
import type { Hit } from './patches.js';
import { spend } from './render-context.js';
import type { Budget, Ctx, IsCapacity, Render, RenderedObject } from './render-context.js';
import { applyPatches, applyReplicas, renameAll } from './render-steps.js';
import { applyReplacements } from './replacements.js';
import type { Sources } from './sources.js';

/**
 * A kustomization rendered as `kustomize build` would: its resources and components loaded (a
 * directory rendered on its own, to a depth), then `render-steps.ts` applies what it says.
 */
export { RENDER_BUDGET } from './render-context.js';
export { nameOf } from './render-steps.js';
export type { Render, RenderedObject } from './render-context.js';

const MAX_DEPTH = 12;
/** A resource named as a file (the references read for a set look these up as files). */
const FILE_REF = /\.(ya?ml|json)$/i;

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
  const out: Render = { objects: [...input], notes: [], missing: [], sources: [path], read: [] };
  const read = sources.kustomization(path);
  if (read === undefined) return { ...out, missing: [path] };
  if (!read.ok) {
    out.notes.push({
      file: path,
      line: read.error.line,
      severity: 'error',
      message: `kustomization could not be read: ${read.error.why}; GPU capacity it patches is not computed`,
    });
    out.missing.push(path);
    return out;
  }
  const k = read.value;
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
  if (out.failed === undefined) applyReplacements(ctx);
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
        loaded.objects.forEach((obj, j) => {
          const name = (obj.metadata as JsonObject | undefined)?.name;
          const span = loaded.spans[j] ?? { from: 1, to: 1 };
          out.objects.push({
            obj,
            entry,
            ownDir: dirOf(path) === k.dir,
            hits: [],
            ...(typeof name === 'string' ? { origin: { file: path, name, ...span } } : {}),
          });
        });
        return;
      }
      // kustomize fails the build on a named file that does not exist ("must resolve to a file or
      // a directory"); a file renamed away from its entry is not applied by this build.
      if (ctx.sources.complete && FILE_REF.test(path) && !KUSTOMIZATION_NAMES.some((n) => ctx.sources.has(`${path}/${n}`))) {
        out.missing.push(path);
        out.failed ??= { ...entry, why: `it names \`${ref}\`, which does not exist, so \`kustomize build\` fails`, absent: path };
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
  out.read.push(...r.read);
  out.notes.push(...r.notes);
  if (r.failed !== undefined) out.failed ??= r.failed;
  return r;
}
