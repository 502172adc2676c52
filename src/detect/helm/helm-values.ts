import { LineCounter } from 'yaml';
import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl } from '../../domain/index.js';
import { flavorModels } from '../kueue/kueue-flavors.js';
import { KUEUE_KIND, queueModel } from '../kueue/kueue-queue.js';
import { isKustomizationPath } from '../kustomize/kustomization.js';
import { readYaml } from '../kit/kube-yaml.js';
import type { YamlDoc } from '../kit/kube-yaml.js';
import { clampLine } from '../kit/lines.js';
import { embeddedYaml } from './nested-objects.js';
import type { Embedded } from './nested-objects.js';
import type { CapacityParser, ParseOutcome, ParseResult, Unfollowed } from '../parser.js';
import { fileFormat, yamlSegments } from '../kit/yaml-segments.js';

// An indented `apiVersion:` (an object inside another) or a values holder.
const MARKERS =
  /^[ \t]+(?:[-[{][ \t]*)*["']?apiVersion["']?[ \t]*:|^[ \t]*(?:-[ \t]+)?(?:valuesObject|valuesContent|valuesTemplate|values)[ \t]*:[ \t]*(?:[|{]|$)/m;

/**
 * Capacity declared inside other YAML: Kubernetes objects listed in Helm values
 * (`extraObjects`, `extraManifests`, `resources` of the raw charts, …), in Argo CD
 * Applications' `helm.valuesObject` / `helm.values`, Flux HelmReleases' `spec.values`, `List`
 * items, and values handed to charts whose values describe the capacity (Karpenter `nodePool:`,
 * the Kueue populator). `inner` reads each of them as the file it would be once rendered; the
 * line numbers are the file's. Top-level documents are left to `inner` itself.
 */
export function helmValuesParser(inner: readonly CapacityParser[]): CapacityParser {
  return {
    id: 'helm-values',
    acceptsPath: (path) => fileFormat(path) !== null,
    // A kustomization's inline patches look like objects but are parts of one (see kustomize/).
    mightContain: (path, text) => fileFormat(path, text) !== null && !isKustomizationPath(path) && MARKERS.test(text),
    parse(path, text) {
      try {
        if (fileFormat(path, text) === null || isKustomizationPath(path) || !MARKERS.test(text))
          return { decls: [], diagnostics: [], unresolved: [] };
        return parseEmbedded(path, text, inner);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        return { decls: [], diagnostics: [diagnostic(path, null, 'error', `helm-values parser failed: ${message}`)], unresolved: [] };
      }
    },
  };
}

function parseEmbedded(path: string, text: string, inner: readonly CapacityParser[]): ParseOutcome {
  const out: Required<ParseResult> = { decls: [], diagnostics: [], unresolved: [] };
  const notFollowed: Unfollowed[] = [];
  // The readers split Markdown and heredoc hosts by path: an embedded text is plain YAML.
  const alias = fileFormat(path) === 'yaml' ? path : `${path}.yaml`;
  const embedded: Embedded[] = [];
  for (const seg of yamlSegments(path, text)) {
    if (!MARKERS.test(seg.text)) continue;
    const scan = embeddedYaml(seg.text);
    embedded.push(...scan.found);
    for (const n of scan.notes) out.diagnostics.push(diagnostic(path, n.line, 'info', n.message));
  }
  for (const e of embedded) {
    for (const parser of inner) {
      if (!parser.mightContain(alias, e.text)) continue;
      const r = parser.parse(alias, e.text);
      for (const d of r.decls) out.decls.push({ ...d, file: path, parts: d.parts.map((p) => ({ ...p })) });
      for (const u of r.unresolved ?? []) out.unresolved.push({ ...u, file: path });
      for (const n of r.notFollowed ?? []) notFollowed.push({ ...n, file: path });
      for (const d of r.diagnostics) out.diagnostics.push({ ...d, file: path, message: `${e.where}: ${d.message}` });
    }
  }
  fillQueueModels(out.decls, embedded, text);
  for (const d of out.diagnostics) if (d.line !== null) d.line = clampLine(d.line, text);
  for (const d of out.decls) {
    d.line = clampLine(d.line, text);
    for (const p of d.parts) p.line = clampLine(p.line, text);
  }
  for (const u of out.unresolved) u.line = clampLine(u.line, text);
  return notFollowed.length === 0 ? out : { ...out, notFollowed };
}

/**
 * A queue's ResourceFlavors are often listed beside it as further objects, or stand in the
 * file's own documents: the GPU model is looked up across all of them.
 */
function fillQueueModels(decls: CapacityDecl[], embedded: readonly Embedded[], text: string): void {
  const queues = decls.filter((d) => d.kind === KUEUE_KIND && d.gpuModel === null);
  if (queues.length === 0) return;
  const docs: YamlDoc[] = [];
  for (const t of [text, ...embedded.map((e) => e.text)]) {
    if (!t.includes('ResourceFlavor')) continue;
    docs.push(...readYaml(t, new LineCounter(), { lists: true }).filter((d) => d.errors.length === 0));
  }
  const models = flavorModels(docs);
  for (const q of queues) q.gpuModel = queueModel(q.parts, models);
}
