import type { Result } from '../../domain/result.js';
import { readCount, readString } from '../kit/counts.js';
import { gkeSharing } from '../kit/gke-sharing.js';
import type { GkeSharing } from '../kit/gke-sharing.js';
import { sharingOnPool } from '../kit/pool-sharing.js';
import type { CountRead } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { acceleratorModel, lookupInstanceType, looksLikeGpuType } from '../kit/gpu-types/index.js';
import type { NodeContext } from '../kit/manifests.js';
import { readManifests } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, scalarValue, seqItems } from '../kit/yaml-nodes.js';

const KIND = 'gke-node-pool' as const;
const MARKERS = /ContainerNodePool/;
const REGION_RE = /^[a-z]+-[a-z]+\d+$/;

/**
 * GKE Config Connector ContainerNodePool: nodes (`autoscaling.maxNodeCount` per zone,
 * `totalMaxNodeCount`, else `nodeCount` / `initialNodeCount`) × guest accelerators per node
 * (or the machine type's GPUs).
 */
export const gkeNodePoolParser = yamlParser('gke-node-pool', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if (m.kind !== 'ContainerNodePool' || !(m.apiVersion ?? '').startsWith('container.cnrm.cloud.google.com/')) continue;
    const spec = mapGet(m.root, 'spec');
    const name = m.name ?? '(unnamed)';
    const perNode = gpusPerNode(mapGet(spec, 'nodeConfig'), m.ctx, m.line);
    if (perNode === null) continue;
    const where = `ContainerNodePool ${name}`;
    if (!perNode.ok) {
      found.note(perNode.line, 'warning', `${where}: ${perNode.error}; its GPUs are not counted`);
      found.unknown(KIND, name, perNode.line);
      continue;
    }
    const auto = mapGet(spec, 'autoscaling');
    const total = readCount(mapGet(auto, 'totalMaxNodeCount'), m.ctx, m.line);
    const perZone = total
      ? null
      : (readCount(mapGet(auto, 'maxNodeCount'), m.ctx, m.line) ??
        readCount(mapGet(spec, 'nodeCount'), m.ctx, m.line) ??
        readCount(mapGet(spec, 'initialNodeCount'), m.ctx, m.line));
    const count: CountRead | null = total ?? perZone;
    if (!count || !count.ok) {
      const why = count ? `the node count ${count.error}` : 'no node count';
      found.note(count?.line ?? m.line, 'warning', `${where}: ${why}; its GPUs are not counted`);
      found.unknown(KIND, name, count?.line ?? m.line);
      continue;
    }
    let zones = 1;
    if (!total) {
      const locations = seqItems(mapGet(spec, 'nodeLocations'));
      const location = readString(mapGet(spec, 'location'), m.ctx);
      if (locations.length > 0) zones = locations.length;
      else if (location && 'value' in location && REGION_RE.test(location.value)) {
        found.note(
          count.line,
          'info',
          `${where}: regional pool in ${location.value}; node counts are per zone and the zones are not listed, so one zone is counted`,
        );
      }
    }
    const gpus = count.value * zones * perNode.value.gpus;
    const sharing = perNode.value.sharing;
    found.decls.push({
      file: m.ctx.file,
      line: count.line,
      kind: KIND,
      name,
      gpuModel: perNode.value.model,
      gpus,
      ...(sharing
        ? {
            sharing: sharingOnPool(
              { file: m.ctx.file, line: sharing.line, name: `${name} gpuSharingConfig` },
              sharing.factor,
              sharing.mode,
              gpus,
            ),
          }
        : {}),
      parts: [
        { label: `${count.value}${zones > 1 ? ` × ${zones} zones` : ''} nodes`, resource: PRIMARY_GPU_RESOURCE, gpus, line: count.line },
      ],
    });
  }
  return found.result(text);
});

/** GPUs per node, their model and how they are shared, at the line that says so. */
type PerNode = Result<{ gpus: number; model: string | null; sharing?: GkeSharing & { line: number } }, string> & { line: number };

/** GPUs per node from guest accelerators, else the machine type; null when the pool has none. */
function gpusPerNode(nodeConfig: unknown, ctx: NodeContext, line: number): PerNode | null {
  const accels = seqItems(mapGet(nodeConfig, 'guestAccelerator'));
  if (accels.length > 0) {
    let total = 0;
    const models = new Set<string | null>();
    let sharing: (GkeSharing & { line: number }) | undefined;
    for (const a of accels) {
      const c = readCount(mapGet(a, 'count'), ctx, line);
      const type = readString(mapGet(a, 'type'), ctx);
      if (!c) continue;
      if (!c.ok) return { ok: false, error: `guestAccelerator count ${c.error}`, line: c.line };
      total += c.value;
      models.add(type && 'value' in type ? acceleratorModel(type.value) : null);
      const config = mapGet(a, 'gpuSharingConfig');
      if (config !== undefined && config !== null && !sharing) {
        const clients = mapGet(config, 'maxSharedClientsPerGpu');
        sharing = {
          ...gkeSharing(scalarValue(mapGet(config, 'gpuSharingStrategy')) ?? undefined, scalarValue(clients)),
          line: nodeLine(clients, ctx.lc) ?? line,
        };
      }
    }
    const [only] = models;
    return { ok: true, value: { gpus: total, model: models.size === 1 ? (only ?? null) : null, ...(sharing ? { sharing } : {}) }, line };
  }
  const machine = readString(mapGet(nodeConfig, 'machineType'), ctx);
  if (!machine) return null;
  if ('template' in machine) return null;
  const row = lookupInstanceType(machine.value);
  if (row) return { ok: true, value: { gpus: row.gpus, model: row.gpuModel }, line };
  if (looksLikeGpuType(machine.value)) return { ok: false, error: `machine type ${machine.value} is not in the catalog`, line };
  return null;
}
