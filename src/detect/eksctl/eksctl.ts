import { bottlerocketSharing } from '../kit/bottlerocket-settings.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { sharingOnPool } from '../kit/pool-sharing.js';
import { readWholeCount } from '../kit/counts.js';
import type { CountRead } from '../kit/counts.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { classifyTypes } from '../kit/node-types.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { findTemplateExpression } from '../kit/template.js';
import { mapGet, nodeLine, nodeSource, scalarString, scalarValue, seqItems } from '../kit/yaml-nodes.js';

const KIND = 'eksctl-nodegroup' as const;
const MARKERS = /eksctl\.io\//;
// eksctl's default size when a group sets neither desiredCapacity nor maxSize.
const EKSCTL_DEFAULT_NODES = 2;

/**
 * eksctl ClusterConfig: each managed or self-managed node group with a GPU instance type is one
 * declaration; GPUs = maxSize (else desiredCapacity) × GPUs per instance.
 */
export const eksctlParser = yamlParser('eksctl', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if (m.kind !== 'ClusterConfig' || !(m.apiVersion ?? '').startsWith('eksctl.io/')) continue;
    for (const key of ['managedNodeGroups', 'nodeGroups']) {
      for (const group of seqItems(mapGet(m.root, key))) readGroup(m, group, found);
    }
  }
  return found.result(text);
});

function typesOf(group: unknown, m: Manifest): { types: string[]; templated: string | null } {
  const nodes = [
    mapGet(group, 'instanceType'),
    ...seqItems(mapGet(group, 'instanceTypes')),
    ...seqItems(mapGet(mapGet(group, 'instancesDistribution'), 'instanceTypes')),
  ].filter((n) => n !== undefined && n !== null);
  const types: string[] = [];
  let templated: string | null = null;
  for (const n of nodes) {
    const expr = findTemplateExpression(nodeSource(n, m.ctx.text));
    if (expr !== null) templated ??= expr;
    else {
      const s = scalarString(n);
      if (s) types.push(s.trim());
    }
  }
  return { types, templated };
}

function readGroup(m: Manifest, group: unknown, found: Findings): void {
  const groupLine = nodeLine(group, m.ctx.lc) ?? m.line;
  const name =
    scalarString(mapGet(group, 'name')) ?? (nodeSource(mapGet(group, 'name'), m.ctx.text).trim() || `(unnamed at line ${groupLine})`);
  const { types, templated } = typesOf(group, m);
  const info = classifyTypes(types);
  if (info.kind === 'cpu') {
    if (templated !== null)
      found.note(groupLine, 'info', `node group ${name}: the instance type is the template expression ${templated}; not counted as GPUs`);
    return;
  }
  if (info.kind === 'unknown-gpu') {
    found.note(
      groupLine,
      'warning',
      `node group ${name}: GPU instance type ${info.types.join(', ')} is not in the catalog; its GPUs per node are unknown`,
    );
    found.unknown(KIND, name, groupLine);
    return;
  }
  const max = readWholeCount(mapGet(group, 'maxSize'), m.ctx, groupLine);
  const desired = readWholeCount(mapGet(group, 'desiredCapacity'), m.ctx, groupLine);
  const size: CountRead | null = max ?? desired;
  const field = max ? 'maxSize' : 'desiredCapacity';
  if (size && !size.ok) {
    found.note(size.line, 'warning', `node group ${name}: ${field} ${size.error}; its GPUs are not counted`);
    found.unknown(KIND, name, size.line);
    return;
  }
  const nodes = size?.ok ? size.value : EKSCTL_DEFAULT_NODES;
  const line = size?.ok ? size.line : groupLine;
  if (!size)
    found.note(
      groupLine,
      'info',
      `node group ${name}: no maxSize or desiredCapacity; counted as eksctl's default of ${EKSCTL_DEFAULT_NODES} nodes`,
    );
  if (info.mixed)
    found.note(
      line,
      'info',
      `node group ${name}: instance types ${types.join(', ')} differ in GPUs; counted at the most per node, ${info.gpusPerNode}`,
    );
  const gpus = nodes * info.gpusPerNode;
  const sharing = groupSharing(m, group, groupLine);
  found.decls.push({
    file: m.ctx.file,
    line,
    kind: KIND,
    name,
    gpuModel: info.gpuModel,
    gpus,
    // Types that differ in GPUs per node leave the step of one more node unknown.
    ...(info.mixed ? {} : { gpuStep: info.gpusPerNode }),
    ...(sharing
      ? {
          sharing: sharingOnPool(
            { file: m.ctx.file, line: sharing.line, name: `${name} bottlerocket.settings` },
            sharing.factor,
            'bottlerocket-time-slicing',
            gpus,
          ),
        }
      : {}),
    parts: [{ label: `${nodes} × ${info.types.join('/')}`, resource: PRIMARY_GPU_RESOURCE, gpus, line }],
  });
}

/** Bottlerocket time-slicing in the group's `bottlerocket.settings`, the same settings as in user data. */
function groupSharing(m: Manifest, group: unknown, groupLine: number): { factor: number | null; line: number } | null {
  const settings = mapGet(mapGet(group, 'bottlerocket'), 'settings');
  if (settings === undefined || settings === null) return null;
  const read = bottlerocketSharing((key) => {
    let node: unknown = settings;
    for (const part of key.replace(/^settings\./, '').split('.')) node = mapGet(node, part);
    const value = scalarValue(node);
    if (node === undefined || (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')) return undefined;
    return { value, line: nodeLine(node, m.ctx.lc) ?? groupLine };
  });
  if (read === null) return null;
  return { factor: 'factor' in read ? read.factor : null, line: read.line };
}
