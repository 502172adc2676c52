import type { SharingMode, SharingSource } from '../../domain/index.js';
import { bottlerocketSettings, bottlerocketSharing } from '../kit/bottlerocket-settings.js';
import { readCount } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { gpuSharingParser } from './gpu-sharing.js';
import { pinnedGpusPerNode, readRequirements } from '../karpenter/karpenter-requirements.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { nodeLine, mapGet, scalarString, scalarText, seqItems } from '../kit/yaml-nodes.js';

/**
 * One object in the repository that decides how many GPUs a node advertises per physical GPU.
 * `factor` null: the object is there but its factor cannot be read.
 */
export type SharingConfig =
  | {
      type: 'device-plugin';
      configMap: string | null;
      key: string | null;
      factor: number | null;
      mode: SharingMode;
      renamed: boolean;
      at: SharingSource;
    }
  | { type: 'device-plugin-default'; key: string; at: SharingSource }
  | { type: 'node-class'; nodeClass: string; factor: number | null; at: SharingSource }
  | { type: 'node-overlay'; pools: string[] | null; gpusPerNode: number | null; capacity: number | null; at: SharingSource };

const MARKERS = /timeSlicing|\bmps:|ClusterPolicy|kubelet-device-plugins|NodeOverlay|devicePlugin:/;

/** Whether a file may hold a sharing config: the cheap check before it is parsed. */
export function mayHoldSharing(path: string, text: string): boolean {
  return /\.(ya?ml|json)$/i.test(path) && MARKERS.test(text);
}

/** The sharing configs one YAML file declares (Markdown and scripts are not applied as they are). */
export function readSharingConfigs(path: string, text: string): SharingConfig[] {
  if (!mayHoldSharing(path, text)) return [];
  const out: SharingConfig[] = [];
  const parsed = gpuSharingParser.parse(path, text);
  for (const d of parsed.decls) {
    // MIG layouts are partitions, read by the MIG review; node classes are read below.
    if (d.name.startsWith('mig-parted/') || d.name.startsWith('EC2NodeClass/')) continue;
    const slash = d.name.indexOf('/');
    // `ConfigMap/key` when held in a ConfigMap; a bare config file is named by its file name alone.
    const held = slash > 0;
    const part = d.parts.find((p) => p.gpus === d.gpus) ?? d.parts[0];
    out.push({
      type: 'device-plugin',
      configMap: held ? d.name.slice(0, slash) : null,
      key: held ? d.name.slice(slash + 1) : null,
      factor: d.gpus,
      mode: part?.label === 'mps' ? 'mps' : 'time-slicing',
      // A renamed resource (`nvidia.com/gpu.shared`) is not what an nvidia.com/gpu limit counts.
      renamed: d.parts.some((p) => p.resource !== PRIMARY_GPU_RESOURCE),
      at: { file: d.file, line: d.line, name: d.name },
    });
  }
  for (const u of parsed.unresolved ?? []) {
    if (u.kind !== 'gpu-sharing' || u.name.startsWith('mig-parted/') || u.name.startsWith('EC2NodeClass/')) continue;
    const slash = u.name.indexOf('/');
    out.push({
      type: 'device-plugin',
      configMap: slash > 0 ? u.name.slice(0, slash) : null,
      key: slash > 0 ? u.name.slice(slash + 1) : null,
      factor: null,
      mode: 'time-slicing',
      renamed: false,
      at: { file: u.file, line: u.line, name: u.name },
    });
  }
  // Device-plugin configs without sharing (`version: v1` alone) are configs too: one GPU per GPU.
  const scan = readManifests(path, text, (t) => MARKERS.test(t) || PLUGIN_CONFIG.test(t));
  for (const m of scan.manifests) {
    if (m.holder) {
      if (mapGet(m.root, 'sharing') === undefined && mapGet(m.root, 'version') !== undefined)
        out.push(
          unshared(m.holder.configMap, m.holder.key, { file: m.ctx.file, line: m.line, name: `${m.holder.configMap}/${m.holder.key}` }),
        );
      continue;
    }
    const api = m.apiVersion ?? '';
    if (m.kind === 'ClusterPolicy' && api.startsWith('nvidia.com/')) defaultOf(m, mapGet(mapGet(m.root, 'spec'), 'devicePlugin'), out);
    else if (m.kind === null) {
      // GPU Operator values name the default under devicePlugin; the device plugin chart's at the top.
      defaultOf(m, mapGet(m.root, 'devicePlugin'), out);
      const map = mapGet(mapGet(m.root, 'config'), 'map');
      if (map !== undefined) {
        defaultOf(m, m.root, out);
        unsharedValues(m, map, out);
      }
    } else if (m.kind === 'EC2NodeClass' && api.startsWith('karpenter.k8s.aws/')) nodeClassOf(m, out);
    else if (m.kind === 'NodeOverlay' && api.startsWith('karpenter.sh/')) overlayOf(m, out);
  }
  return out;
}

const PLUGIN_CONFIG = /\bversion:\s*v1\b/;

function unshared(configMap: string | null, key: string, at: SharingSource): SharingConfig {
  return { type: 'device-plugin', configMap, key, factor: 1, mode: 'time-slicing', renamed: false, at };
}

/** The device plugin chart's `config.map` entries that set no sharing. */
function unsharedValues(m: Manifest, map: unknown, out: SharingConfig[]): void {
  if (!map || typeof map !== 'object' || !('items' in map)) return;
  for (const pair of (map as { items: { key: unknown; value: unknown }[] }).items) {
    const key = scalarText(pair.key);
    const text = scalarString(pair.value);
    if (key === '' || text === null || /\bsharing:/.test(text) || !PLUGIN_CONFIG.test(text)) continue;
    out.push(unshared('config.map', key, { file: m.ctx.file, line: nodeLine(pair.value, m.ctx.lc) ?? m.line, name: `config.map/${key}` }));
  }
}

/** ClusterPolicy `spec.devicePlugin.config.default`, or the GPU Operator chart's `devicePlugin.config.default`. */
function defaultOf(m: Manifest, devicePlugin: unknown, out: SharingConfig[]): void {
  const config = mapGet(devicePlugin, 'config');
  const key = scalarString(mapGet(config, 'default'));
  if (key === null || key === '') return;
  const line = nodeLine(mapGet(config, 'default'), m.ctx.lc) ?? m.line;
  const cm = scalarString(mapGet(config, 'name'));
  out.push({ type: 'device-plugin-default', key, at: { file: m.ctx.file, line, name: cm ? `${cm}/${key}` : key } });
}

/** Bottlerocket time-slicing in an EC2NodeClass's TOML user data. */
function nodeClassOf(m: Manifest, out: SharingConfig[]): void {
  const userData = mapGet(mapGet(m.root, 'spec'), 'userData');
  const toml = scalarString(userData);
  if (toml === null) return;
  const name = m.name ?? '(unnamed)';
  const settings = bottlerocketSettings(toml);
  const sharing = bottlerocketSharing((k) => settings.get(k));
  if (sharing === null) return;
  // A block scalar's text starts on the line after its `userData: |` key.
  const at = { file: m.ctx.file, line: (nodeLine(userData, m.ctx.lc) ?? m.line) + sharing.line, name: `EC2NodeClass/${name}` };
  out.push({ type: 'node-class', nodeClass: name, factor: 'factor' in sharing ? sharing.factor : null, at });
}

/** A Karpenter NodeOverlay that sets the nvidia.com/gpu capacity of the instance types it selects. */
function overlayOf(m: Manifest, out: SharingConfig[]): void {
  const spec = mapGet(m.root, 'spec');
  const capacityNode = mapGet(mapGet(spec, 'capacity'), PRIMARY_GPU_RESOURCE);
  if (capacityNode === undefined) return;
  const read = readCount(capacityNode, m.ctx, m.line);
  const reqs = seqItems(mapGet(spec, 'requirements'));
  let pools: string[] | null = null;
  let gpusPerNode: number | null = null;
  for (const r of reqs) {
    const key = scalarString(mapGet(r, 'key'));
    const op = scalarString(mapGet(r, 'operator')) ?? 'In';
    const values = seqItems(mapGet(r, 'values')).map((v) => scalarText(v));
    if (op !== 'In') continue;
    if (key === 'karpenter.sh/nodepool') pools = values;
    if ((key === 'karpenter.k8s.aws/instance-gpu-count' || key === 'eks.amazonaws.com/instance-gpu-count') && values.length === 1) {
      const n = Number(values[0]);
      if (Number.isInteger(n) && n > 0) gpusPerNode = n;
    }
  }
  gpusPerNode ??= pinnedGpusPerNode(readRequirements(mapGet(spec, 'requirements')));
  const line = read?.line ?? nodeLine(capacityNode, m.ctx.lc) ?? m.line;
  out.push({
    type: 'node-overlay',
    pools,
    gpusPerNode,
    capacity: read?.ok ? read.value : null,
    at: { file: m.ctx.file, line, name: `NodeOverlay/${m.name ?? '(unnamed)'}` },
  });
}
