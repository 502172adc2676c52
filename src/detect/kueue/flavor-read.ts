import { isNode, LineCounter } from 'yaml';
import { MAX_FILE_CHARS } from '../../domain/index.js';
import { readYaml } from '../kit/kube-yaml.js';
import type { YamlDoc } from '../kit/kube-yaml.js';
import { mapGet, scalarString } from '../kit/yaml-nodes.js';
import { fileFormat, yamlSegments } from '../kit/yaml-segments.js';
import { isTfFile } from '../terraform/tf-json.js';
import { terraformManifestsParser } from '../terraform/manifests-parser.js';
import type { CapacityParser, SourceFile } from '../parser.js';
import { dirOf } from '../kit/paths.js';
import { isKustomizationPath, KUSTOMIZATION_NAMES, patchReferences, readKustomization } from '../kustomize/kustomization.js';

export interface Flavor {
  file: string;
  line: number;
  /** The flavor's spec as data: what Kueue places a queue's workloads by. */
  print: string;
  /** Its `nodeLabels` as data, null when it has none: which nodes its quota buys. */
  labels: string | null;
  doc: YamlDoc;
}

/** What one side of a changed file holds of ResourceFlavors. */
export interface FlavorsRead {
  flavors: Flavor[];
  /** Objects of kind ResourceFlavor written in it that could not be read (a name or a carrier unknown). */
  unread: number;
}

/**
 * A `kind` of ResourceFlavor, however the carrier spells the key: YAML (`kind: ResourceFlavor`,
 * quoted, or a block scalar), HCL (`kind = "ResourceFlavor"`) or JSON. Counted so that an object
 * the readers could not take is named, never read as absent.
 */
const FLAVOR_KIND = /\bkind\b["']?[ \t]*[:=][ \t]*(?:[|>][-+0-9]*[ \t]*(?:#.*)?\r?\n[ \t]*)?["']?ResourceFlavor\b/g;

/**
 * Whether a changed path may carry a ResourceFlavor that kubectl or Terraform applies: YAML, or a
 * heredoc host (`.tf`, a script). A kustomization is kustomize's own configuration: the kinds in it
 * select objects (`target: {kind: ResourceFlavor}`), they are none.
 */
export function mayCarryFlavors(path: string): boolean {
  if (isKustomizationPath(path)) return false;
  const format = fileFormat(path);
  return format === 'yaml' || format === 'heredoc-host';
}

/**
 * The ResourceFlavors of one side of a file, through the same readers as the rest of detection:
 * YAML as written (Lists, aliases, go-yaml numbers: kube-yaml.ts), heredocs of scripts and
 * Terraform (yaml-segments.ts), and Terraform manifest resources (`kubernetes_manifest`,
 * `kubectl_manifest` with `yamlencode`) evaluated by the Terraform manifests reader.
 */
export function readFlavors(path: string, text: string | null, module: readonly SourceFile[] = []): FlavorsRead {
  const out: FlavorsRead = { flavors: [], unread: 0 };
  if (text === null || !text.includes('ResourceFlavor')) return out;
  const written = text.match(FLAVOR_KIND)?.length ?? 0;
  if (text.length > MAX_FILE_CHARS) return { flavors: [], unread: Math.max(1, written) };
  const byName = new Map<string, Flavor>();
  for (const seg of yamlSegments(path, text)) for (const f of flavorsIn(path, seg.text)) byName.set(nameOf(f), f);
  if (isTfFile(path)) for (const f of terraformFlavors(path, text, module)) if (!byName.has(nameOf(f))) byName.set(nameOf(f), f);
  out.flavors = [...byName.values()];
  out.unread = Math.max(0, written - out.flavors.length);
  return out;
}

function nameOf(f: Flavor): string {
  return scalarString(mapGet(mapGet(f.doc.contents, 'metadata'), 'name')) ?? '';
}

function flavorsIn(path: string, text: string, lineOf?: (name: string) => number): Flavor[] {
  const out: Flavor[] = [];
  const lc = new LineCounter();
  for (const doc of readYaml(text, lc, { lists: true })) {
    if (doc.errors.length > 0) continue;
    const root = doc.contents;
    if (scalarString(mapGet(root, 'kind')) !== 'ResourceFlavor') continue;
    if (!(scalarString(mapGet(root, 'apiVersion')) ?? '').startsWith('kueue.x-k8s.io/')) continue;
    const name = scalarString(mapGet(mapGet(root, 'metadata'), 'name'));
    if (name === null) continue;
    const spec = mapGet(root, 'spec');
    const labels = mapGet(spec, 'nodeLabels');
    const labelData: unknown = isNode(labels) ? labels.toJSON() : null;
    out.push({
      file: path,
      line: lineOf ? lineOf(name) : lc.linePos(doc.range[0]).line,
      print: JSON.stringify(isNode(spec) ? spec.toJSON() : (spec ?? null)),
      labels: labelData !== null && typeof labelData === 'object' && Object.keys(labelData).length > 0 ? JSON.stringify(labelData) : null,
      doc,
    });
  }
  return out;
}

/**
 * The flavors of the manifest resources of a `.tf` file, as the Terraform manifests reader
 * renders them: it hands each object's YAML to its inner readers, here one that keeps the text.
 * The file is read with its module (the `.tf` and `.tfvars` files of its folder at that side), so a
 * label set from a variable or a local is its value there; only its own resources are kept.
 */
function terraformFlavors(path: string, text: string, module: readonly SourceFile[]): Flavor[] {
  const rendered: string[] = [];
  const keeper: CapacityParser = {
    id: 'kueue-flavor-text',
    acceptsPath: () => true,
    mightContain: (_p, t) => t.includes('ResourceFlavor'),
    parse: (p, t) => {
      // The manifests reader names each object `<file>#<address>.yaml`.
      if (p.startsWith(`${path}#`)) rendered.push(t);
      return { decls: [], diagnostics: [], unresolved: [] };
    },
  };
  const files = [...module.filter((f) => f.path !== path), { path, text }];
  terraformManifestsParser([keeper]).parseSet?.(files);
  const lines = text.split('\n');
  // The rendered YAML has lines of its own: a flavor is placed at the first line of the file naming it.
  const lineOf = (name: string) => Math.max(1, lines.findIndex((l) => l.includes(name)) + 1);
  return rendered.flatMap((t) => flavorsIn(path, t, lineOf));
}

/**
 * Whether a kustomization of the file's own folder names it as a patch at this side: its
 * ResourceFlavor is then a part of the flavor the build makes, not a flavor of its own.
 */
export async function isKustomizePatch(path: string, read: (p: string) => Promise<string | null>): Promise<boolean> {
  const dir = dirOf(path);
  for (const name of KUSTOMIZATION_NAMES) {
    const at = dir === '' ? name : `${dir}/${name}`;
    const text = await read(at);
    if (text === null) continue;
    const k = readKustomization(at, text);
    if (k.ok && patchReferences(k.value).includes(path)) return true;
  }
  return false;
}
