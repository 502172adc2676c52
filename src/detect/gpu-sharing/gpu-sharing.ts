import type { CapacityPart } from '../../domain/index.js';
import { bottlerocketSettings, bottlerocketSharing } from '../kit/bottlerocket-settings.js';
import { readCount } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { readMigLayouts } from './mig-parted.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { isScalar, Scalar } from 'yaml';
import { mapGet, nodeLine, scalarString, scalarText, scalarValue, seqItems } from '../kit/yaml-nodes.js';

const SHARING_KIND = 'gpu-sharing' as const;
const MARKERS = /timeSlicing|\bmps:|mig-configs|ClusterPolicy|kubelet-device-plugins/;

/**
 * GPU sharing and partitioning. A declaration here is NOT hardware: `gpus` is how many
 * schedulable GPUs the node advertises per physical GPU (time-slicing / MPS `replicas`, or MIG
 * devices per GPU for a mig-parted layout; 1 = no sharing). "1 → 4" therefore reads honestly as
 * "each GPU now counts as 4", and the change carries no price, because no GPU is bought. Each
 * declaration comes with an info diagnostic saying so. The name is the ConfigMap and data key
 * holding the config (`device-plugin-config/time-sliced`), the mig-parted layout
 * (`mig-parted/all-1g.5gb`), or the file name for a bare config file.
 */
export const gpuSharingParser = yamlParser('gpu-sharing', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  const bare = scan.manifests.filter((m) => !m.holder && mapGet(m.root, 'sharing') !== undefined).length;
  let ordinal = 0;
  for (const m of scan.manifests) {
    if (mapGet(m.root, 'sharing') !== undefined) {
      ordinal += m.holder ? 0 : 1;
      const base = path.split('/').pop() ?? path;
      const name = m.holder ? `${m.holder.configMap}/${m.holder.key}` : bare > 1 ? `${base}#${ordinal}` : base;
      readSharing(m, name, found);
    } else if (mapGet(m.root, 'mig-configs') !== undefined) {
      readMigLayouts(m, found);
    } else if (m.kind === 'ClusterPolicy' && (m.apiVersion ?? '').startsWith('nvidia.com/')) {
      readClusterPolicy(m, found);
    } else if (m.kind === 'EC2NodeClass' && (m.apiVersion ?? '').startsWith('karpenter.k8s.aws/')) {
      readNodeClass(m, found);
    } else if (m.kind === null && !m.holder) {
      readValuesMap(path, m, found);
    }
  }
  return found.result(text);
});

function readSharing(m: Manifest, name: string, found: Findings): void {
  const sharing = mapGet(m.root, 'sharing');
  const parts: CapacityPart[] = [];
  for (const mode of ['timeSlicing', 'mps'] as const) {
    const block = mapGet(sharing, mode);
    if (block === undefined || block === null) continue;
    const renameAll = scalarValue(mapGet(block, 'renameByDefault')) === true;
    for (const res of seqItems(mapGet(block, 'resources'))) {
      const resource = scalarString(mapGet(res, 'name')) ?? PRIMARY_GPU_RESOURCE;
      const line = nodeLine(res, m.ctx.lc) ?? m.line;
      const replicas = readCount(mapGet(res, 'replicas'), m.ctx, line);
      if (!replicas || !replicas.ok) {
        found.note(
          replicas?.line ?? line,
          'warning',
          `${name}: ${mode} replicas for ${resource} ${replicas ? replicas.error : 'is not set'}; the GPUs advertised per physical GPU are unknown`,
        );
        found.unknown(SHARING_KIND, name, replicas?.line ?? line);
        return;
      }
      const rename = scalarString(mapGet(res, 'rename'));
      const advertised = rename ?? (renameAll ? `${resource}.shared` : resource);
      // replicas 0 or 1 means no sharing: one schedulable GPU per physical GPU.
      parts.push({ label: mode, resource: advertised, gpus: Math.max(1, replicas.value), line: replicas.line });
    }
  }
  if (parts.length === 0) return;
  const gpus = Math.max(...parts.map((p) => p.gpus));
  const first = parts[0];
  const line = first?.line ?? m.line;
  found.decls.push({ file: m.ctx.file, line, kind: SHARING_KIND, name, gpuModel: null, gpus, parts });
  found.note(
    line,
    'info',
    `${name}: each physical GPU is advertised as ${gpus} ${first?.resource ?? PRIMARY_GPU_RESOURCE}${gpus > 1 ? ' (shared, not isolated)' : ' (no sharing)'}; sharing changes the GPUs the scheduler sees, not the hardware`,
  );
}

function readClusterPolicy(m: Manifest, found: Findings): void {
  const spec = mapGet(m.root, 'spec');
  const strategy = scalarString(mapGet(mapGet(spec, 'mig'), 'strategy'));
  const name = m.name ?? '(unnamed)';
  if (strategy !== null) {
    const line = nodeLine(mapGet(mapGet(spec, 'mig'), 'strategy'), m.ctx.lc) ?? m.line;
    found.note(
      line,
      'info',
      strategy === 'single'
        ? `ClusterPolicy ${name}: MIG strategy single advertises MIG slices as ${PRIMARY_GPU_RESOURCE}, so the MIG layout decides the ${PRIMARY_GPU_RESOURCE} count without new hardware`
        : `ClusterPolicy ${name}: MIG strategy ${strategy}; MIG slices are advertised as nvidia.com/mig-<profile>`,
    );
  }
  const config = mapGet(mapGet(spec, 'devicePlugin'), 'config');
  const cm = scalarString(mapGet(config, 'name'));
  if (cm !== null) {
    const def = scalarString(mapGet(config, 'default'));
    const line = nodeLine(config, m.ctx.lc) ?? m.line;
    found.note(
      line,
      'info',
      `ClusterPolicy ${name}: the device plugin reads ConfigMap ${cm}${def ? `, profile ${def} by default (${cm}/${def})` : ''}; its sharing settings change the GPUs advertised per physical GPU`,
    );
  }
}

/** Bottlerocket time-slicing in an EC2NodeClass's user data: the nodes of its NodePools share their GPUs. */
function readNodeClass(m: Manifest, found: Findings): void {
  const userData = mapGet(mapGet(m.root, 'spec'), 'userData');
  const toml = scalarString(userData);
  if (toml === null) return;
  const read = bottlerocketSharing((k) => bottlerocketSettings(toml).get(k));
  if (read === null) return;
  const name = `EC2NodeClass/${m.name ?? '(unnamed)'}`;
  // A block scalar's text starts on the line after its `userData: |` key.
  const line = (nodeLine(userData, m.ctx.lc) ?? m.line) + read.line;
  if ('unreadable' in read) {
    found.note(line, 'warning', `${name}: Bottlerocket ${read.unreadable}; the GPUs advertised per physical GPU are unknown`);
    found.unknown(SHARING_KIND, name, line);
    return;
  }
  const resource = PRIMARY_GPU_RESOURCE;
  found.decls.push({
    file: m.ctx.file,
    line,
    kind: SHARING_KIND,
    name,
    gpuModel: null,
    gpus: read.factor,
    parts: [{ label: 'bottlerocket time-slicing', resource, gpus: read.factor, line }],
  });
  found.note(
    line,
    'info',
    `${name}: Bottlerocket advertises each physical GPU as ${read.factor} ${resource}${read.factor > 1 ? ' (time-sliced, not isolated)' : ' (no sharing)'}; sharing changes the GPUs the scheduler sees, not the hardware`,
  );
}

/**
 * The NVIDIA device plugin chart's values: `config.map.<name>` holds each config as a string,
 * rendered into the plugin's ConfigMap under that key. Named `config.map/<name>`.
 */
function readValuesMap(path: string, m: Manifest, found: Findings): void {
  const map = mapGet(mapGet(m.root, 'config'), 'map');
  if (!map || typeof map !== 'object' || !('items' in map)) return;
  for (const pair of (map as { items: { key: unknown; value: unknown }[] }).items) {
    const key = scalarText(pair.key);
    const value = pair.value;
    if (key === '' || !isScalar(value) || typeof value.value !== 'string' || !MARKERS.test(value.value)) continue;
    const header = nodeLine(value, m.ctx.lc) ?? m.line;
    // A literal block's lines start on the line after its `|` header.
    const padded = '\n'.repeat(value.type === Scalar.BLOCK_LITERAL ? header : header - 1) + value.value;
    for (const held of readManifests(path, padded, (t) => MARKERS.test(t)).manifests) {
      if (mapGet(held.root, 'sharing') !== undefined)
        readSharing({ ...held, ctx: { ...held.ctx, file: m.ctx.file } }, `config.map/${key}`, found);
    }
  }
}
