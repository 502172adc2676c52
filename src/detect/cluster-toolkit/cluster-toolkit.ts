import { gkeSharing } from '../kit/gke-sharing.js';
import type { GkeSharing } from '../kit/gke-sharing.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { acceleratorModel, lookupInstanceType } from '../kit/gpu-types/index.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { sharingOnPool } from '../kit/pool-sharing.js';
import { parseQuantity } from '../kit/quantity.js';
import { mapGet, nodeLine, nodeSource, scalarString, scalarValue, seqItems } from '../kit/yaml-nodes.js';

const KIND = 'gke-node-pool' as const;
const MARKERS = /gke-node-pool/;
const VAR_REF_RE = /^\$\(vars\.([\w-]+)\)$/;

/**
 * Google Cloud Cluster Toolkit blueprints: each `modules/compute/gke-node-pool` module is a
 * GKE node pool of `static_node_count` (or `autoscaling_total_max_nodes`) nodes × GPUs per
 * node. `$(vars.x)` resolves against the blueprint's `vars`; other references stay unknown.
 */
export const clusterToolkitParser = yamlParser('cluster-toolkit', MARKERS, (path, text) => {
  const found = new Findings(path);
  // gcluster reads blueprints with go-yaml v3.
  const scan = readManifests(path, text, (t) => MARKERS.test(t) && /deployment_groups/.test(t), 'go-yaml-v3');
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    for (const group of seqItems(mapGet(m.root, 'deployment_groups'))) {
      for (const mod of seqItems(mapGet(group, 'modules'))) {
        if (!(scalarString(mapGet(mod, 'source')) ?? '').endsWith('gke-node-pool')) continue;
        readPool(m, mod, found);
      }
    }
  }
  return found.result(text);
});

type Resolved = { value: unknown; line: number } | { why: string; line: number };

function resolve(m: Manifest, node: unknown, fallback: number): Resolved | null {
  if (node === undefined) return null;
  const line = nodeLine(node, m.ctx.lc) ?? fallback;
  const source = nodeSource(node, m.ctx.text).trim();
  const ref = VAR_REF_RE.exec(source);
  if (ref) {
    const v = mapGet(mapGet(m.root, 'vars'), ref[1] ?? '');
    const value = scalarValue(v);
    if (value === undefined || value === null || value === '') {
      return { why: `is ${source}, and vars.${ref[1]} is ${v === undefined ? 'not set' : 'empty'}`, line };
    }
    return { value, line };
  }
  if (source.includes('$(')) return { why: `is the reference ${source}, unknown until the blueprint is deployed`, line };
  return { value: scalarValue(node), line };
}

function readPool(m: Manifest, mod: unknown, found: Findings): void {
  const name = scalarString(mapGet(mod, 'id')) ?? '(unnamed)';
  const settings = mapGet(mod, 'settings');
  const modLine = nodeLine(mod, m.ctx.lc) ?? m.line;
  let perNode: number | null = null;
  let model: string | null = null;
  let sharing: (GkeSharing & { line: number }) | null = null;
  for (const ga of seqItems(mapGet(settings, 'guest_accelerator'))) {
    const count = resolve(m, mapGet(ga, 'count'), modLine);
    const type = resolve(m, mapGet(ga, 'type'), modLine);
    if (count && 'value' in count) perNode = (perNode ?? 0) + (parseQuantity(count.value) ?? 0);
    if (type && 'value' in type && typeof type.value === 'string') model = acceleratorModel(type.value);
    sharing ??= toolkitSharing(m, ga, modLine);
  }
  const machine = resolve(m, mapGet(settings, 'machine_type'), modLine);
  const row = machine && 'value' in machine && typeof machine.value === 'string' ? lookupInstanceType(machine.value) : null;
  perNode ??= row?.gpus ?? null;
  model ??= row?.gpuModel ?? null;
  if (perNode === null || perNode === 0) return;

  const where = `gke-node-pool module ${name}`;
  const count =
    resolve(m, mapGet(settings, 'autoscaling_total_max_nodes'), modLine) ?? resolve(m, mapGet(settings, 'static_node_count'), modLine);
  const field = mapGet(settings, 'autoscaling_total_max_nodes') !== undefined ? 'autoscaling_total_max_nodes' : 'static_node_count';
  const nodes = count && 'value' in count ? parseQuantity(count.value) : null;
  if (!count || nodes === null) {
    const why = !count ? 'is not set' : 'why' in count ? count.why : 'is not a number';
    found.note(count?.line ?? modLine, 'warning', `${where}: ${field} ${why}; its ${perNode} GPUs per node are not counted`);
    found.unknown(KIND, name, count?.line ?? modLine);
    return;
  }
  const gpus = nodes * perNode;
  found.decls.push({
    file: m.ctx.file,
    line: count.line,
    kind: KIND,
    name,
    gpuModel: model,
    gpus,
    ...(sharing
      ? {
          sharing: sharingOnPool(
            { file: m.ctx.file, line: sharing.line, name: `${name} gpu_sharing_config` },
            sharing.factor,
            sharing.mode,
            gpus,
          ),
        }
      : {}),
    parts: [{ label: `${nodes} nodes × ${perNode}`, resource: PRIMARY_GPU_RESOURCE, gpus, line: count.line }],
  });
}

/** A guest accelerator's `gpu_sharing_config` (an object, or a list of one as the module's variable allows). */
function toolkitSharing(m: Manifest, ga: unknown, fallback: number): (GkeSharing & { line: number }) | null {
  const raw = mapGet(ga, 'gpu_sharing_config');
  const config = seqItems(raw)[0] ?? raw;
  if (config === undefined || config === null) return null;
  const strategy = resolve(m, mapGet(config, 'gpu_sharing_strategy'), fallback);
  const clients = resolve(m, mapGet(config, 'max_shared_clients_per_gpu'), fallback);
  const read = gkeSharing(
    strategy && 'value' in strategy ? strategy.value : undefined,
    clients && 'value' in clients ? clients.value : undefined,
  );
  return { ...read, line: clients?.line ?? strategy?.line ?? fallback };
}
