import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl, CapacityKind } from '../../domain/index.js';
import { karpenterParser } from '../karpenter/karpenter.js';
import { kueueParser } from '../kueue/kueue.js';
import { kubeStringify } from '../kit/kube-yaml.js';
import { clampLine } from '../kit/lines.js';
import type { CapacityParser, SetParseResult, SourceFile } from '../parser.js';
import { fileFormat } from '../kit/yaml-segments.js';
import { isKustomizationPath, kustomizationReferences, readKustomization } from './kustomization.js';
import { jsonText } from './patch-apply.js';
import type { JsonObject } from './patch-apply.js';
import { capacityKindOf } from './patches.js';
import type { Hit } from './patches.js';
import { render } from './render.js';
import type { RenderedObject } from './render.js';

const RENDERED = 'kustomize-rendered.yaml';

/**
 * Kustomize overlays that patch a ClusterQueue's quota or a Karpenter NodePool's limits
 * (`patches`, `patchesStrategicMerge`, `patchesJson6902`, inline or in patch files). The
 * kustomization is read with the files it names (bases through `resources`), the patches are
 * applied as kustomize applies them to custom resources, and the result is counted by the
 * Kueue and Karpenter readers. A patched object is reported at the line of the GPU value the
 * patch sets; an object an overlay takes from a base unpatched is reported at its `resources`
 * entry, so adding or removing a patch compares with what the overlay rendered before. Where
 * the base cannot be read and the patch alone does not decide the count, a warning says so.
 */
export const kustomizeParser: CapacityParser = {
  id: 'kustomize',
  acceptsPath: (path) => isKustomizationPath(path) || fileFormat(path) === 'yaml',
  acceptsSibling: isKustomizationPath,
  mightContain: (path) => isKustomizationPath(path),
  parse(path, text) {
    if (!isKustomizationPath(path)) return { decls: [], diagnostics: [], unresolved: [] };
    const { decls, diagnostics, unresolved } = parseKustomizations([{ path, text }]);
    return { decls, diagnostics, unresolved };
  },
  parseSet: (files) => parseKustomizations(files),
  references(file) {
    if (!isKustomizationPath(file.path)) return [];
    const read = readKustomization(file.path, file.text);
    return read.ok ? kustomizationReferences(read.k) : [];
  },
};

function parseKustomizations(files: readonly SourceFile[]): Required<SetParseResult> {
  const out: Required<SetParseResult> = { decls: [], diagnostics: [], unresolved: [], supersedes: [], replaces: [] };
  const texts = new Map(files.map((f) => [f.path, f.text]));
  // Bases read for an overlay are rendered through it, not reported on their own.
  const referenced = new Set(files.flatMap((f) => kustomizeParser.references?.(f) ?? []));
  for (const file of files) {
    if (!isKustomizationPath(file.path) || referenced.has(file.path)) continue;
    try {
      readOne(file.path, texts, out);
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
  out.supersedes = [...new Set(out.supersedes)].sort();
  return out;
}

function readOne(path: string, texts: ReadonlyMap<string, string>, out: Required<SetParseResult>): void {
  const result = render(path, texts);
  out.supersedes.push(...result.sources);
  for (const n of result.notes) out.diagnostics.push(diagnostic(n.file, n.line, n.severity, n.message));
  for (const u of result.unknown) out.unresolved.push({ file: u.file, line: u.line, kind: kindOf(u.kind), name: u.name });
  const flavors = result.objects.filter((o) => o.obj.kind === 'ResourceFlavor').map((o) => o.obj);
  for (const o of result.objects) {
    const kind = capacityKindOf(jsonText(o.obj.kind), jsonText(o.obj.apiVersion).split('/')[0]);
    if (kind === null) continue;
    const last = o.hits[o.hits.length - 1];
    // Unpatched objects of this kustomization's own directory are read by the other readers.
    if (last === undefined && (o.ownDir || o.entry.file !== path)) continue;
    count(o, kind === 'ClusterQueue' ? [...flavors, o.obj] : [o.obj], last ?? o.entry, last !== undefined, out);
    // The resource file's own reading names the object as it is before this render renames it.
    if (o.origin !== undefined) out.replaces.push({ file: o.origin.file, kind: kindOf(kind), name: o.origin.name });
  }
}

function count(o: RenderedObject, objects: JsonObject[], at: Hit, patched: boolean, out: Required<SetParseResult>): void {
  const text = objects.map((obj) => kubeStringify(obj)).join('---\n');
  const parser = o.obj.kind === 'ClusterQueue' ? kueueParser : karpenterParser;
  const r = parser.parse(RENDERED, text);
  const name = jsonText((o.obj.metadata as JsonObject | undefined)?.name);
  const where = o.baseUnknown === undefined ? '' : ` (its base, ${o.baseUnknown}, could not be read; counted from the patch alone)`;
  // Diagnostics of an unpatched object belong to its own file, reported when that file changes.
  if (patched) {
    for (const d of r.diagnostics) out.diagnostics.push(diagnostic(at.file, at.line, d.severity, `as patched: ${d.message}`));
  }
  for (const d of r.decls) {
    if (d.name !== name) continue;
    const decl: CapacityDecl = { ...d, file: at.file, line: at.line, parts: d.parts.map((p) => ({ ...p, line: at.line })) };
    out.decls.push(decl);
    if (where !== '') out.diagnostics.push(diagnostic(at.file, at.line, 'info', `${o.obj.kind as string} ${name}: ${d.gpus} GPUs${where}`));
  }
  for (const u of r.unresolved ?? []) {
    if (u.name === name) out.unresolved.push({ ...u, file: at.file, line: at.line });
  }
}

function kindOf(kind: 'ClusterQueue' | 'NodePool' | 'Provisioner'): CapacityKind {
  return kind === 'ClusterQueue' ? 'kueue-cluster-queue' : 'karpenter-nodepool';
}
