import type { Result } from '../../domain/result.js';
import type { CapacityDecl, CapacityPart, SharingLink } from '../../domain/index.js';
import { readCount } from '../kit/counts.js';
import { looksLikeGpuFamily, looksLikeGpuType } from '../kit/gpu-types/index.js';
import { DEVICE_PLUGIN_CONFIG_LABEL } from '../kit/device-plugin-label.js';
import { isWholeGpuResource, PRIMARY_GPU_RESOURCE, WHOLE_GPU_RESOURCES, wholeGpuResourceOf } from '../kit/gpu-resources.js';
import { gpusPerNodeRange, pinnedGpusPerNode, readRequirements, requirementsModel, templatedValue } from './karpenter-requirements.js';
import type { GpuRequirements } from './karpenter-requirements.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeSource, scalarString, seqItems } from '../kit/yaml-nodes.js';
import { clampLine } from '../kit/lines.js';
import { isGpuResource } from '../kit/gpu-resources.js';
import { deadLines, nodeLines, pairLines, pairOf, pairsExcept } from '../kit/node-lines.js';
import type { NodeLines } from '../kit/node-lines.js';
import type { AccountedLines } from '../parser.js';

const KIND = 'karpenter-nodepool' as const;
const MARKERS = /NodePool|Provisioner|nodePool:/;

/**
 * Karpenter NodePool (karpenter.sh/v1, v1beta1), legacy v1alpha5 Provisioner, and the
 * `nodePool:` block of Helm values that render one. The GPU ceiling is `limits["nvidia.com/gpu"]`
 * (or `amd.com/gpu`, Intel's `gpu.intel.com/*`; summed when several are set); a static pool
 * (`spec.replicas`) is replicas × GPUs per node when the instance type is pinned.
 */
export const karpenterParser = yamlParser('karpenter', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  const accounted: AccountedLines[] = [];
  for (const m of scan.manifests) {
    const pool = poolOf(m);
    if (!pool) continue;
    readPool(m, pool, found);
    for (const lines of poolLines(m, pool))
      accounted.push({ file: path, from: clampLine(lines.from, text), to: clampLine(lines.to, text) });
  }
  return { ...found.result(text), accounted };
});

/**
 * The lines of a pool this reader reads: the whole object (or the values' `nodePool:` block) but
 * its `limits`, and there each whole-GPU limit it counts and each limit that is no GPU (cpu,
 * memory), and the lines there no limit the applier reads sits on (a merge key its own keys
 * override). A GPU limit it does not count (a MIG profile, `nvidia.com/gpu.shared`) is left out, so
 * the floor sees it and the file is not followed.
 */
function poolLines(m: Manifest, pool: PoolShape): NodeLines[] {
  const lc = m.ctx.lc;
  const spec = mapGet(m.root, 'spec');
  const holder =
    pool.label === 'NodePool values' ? mapGet(m.root, 'nodePool') : pool.label === 'Provisioner' ? mapGet(spec, 'limits') : spec;
  const limitsKey = pool.label === 'Provisioner' ? 'resources' : 'limits';
  const out: NodeLines[] = [];
  if (pool.label === 'NodePool values') {
    const block = pairOf(m.root, 'nodePool');
    const key = block ? nodeLines(block.key, lc) : null;
    if (key) out.push(key);
    const name = pairOf(m.root, 'name');
    const nameLines = name ? pairLines(name, lc) : null;
    if (nameLines) out.push(nameLines);
  } else {
    out.push(...pairsExcept(m.root, ['spec'], lc), ...pairsExcept(spec, ['limits'], lc));
    const specKey = pairOf(m.root, 'spec');
    const key = specKey ? nodeLines(specKey.key, lc) : null;
    if (key) out.push(key);
  }
  if (holder !== spec) out.push(...pairsExcept(holder, [limitsKey], lc));
  const limits = pairOf(holder, limitsKey);
  const key = limits ? nodeLines(limits.key, lc) : null;
  if (key) out.push(key);
  out.push(...pairsExcept(pool.limits, uncounted(pool.limits), lc), ...deadLines(pool.limits, lc));
  return out;
}

/** Limit names that are GPUs, or may be, that this reader does not count. */
function uncounted(limits: unknown): string[] {
  const items = (limits as { items?: { key?: { value?: unknown } }[] } | null)?.items ?? [];
  return items
    .map((p) => p.key?.value)
    .filter((k): k is string => typeof k === 'string')
    .filter((k) => (isGpuResource(k) || /gpu|accelerator/i.test(k)) && !isWholeGpuResource(k));
}

interface PoolShape {
  label: string;
  name: string;
  limits: unknown;
  requirements: unknown;
  replicas: unknown;
  taints: unknown;
  /** Node labels the pool gives its nodes, and the node class they are made from. */
  labels: unknown;
  nodeClass: unknown;
}

function poolOf(m: Manifest): PoolShape | null {
  const spec = mapGet(m.root, 'spec');
  const nameNode = mapGet(mapGet(m.root, 'metadata'), 'name');
  const name = m.name ?? (nodeSource(nameNode, m.ctx.text).trim() || '(unnamed)');
  const api = m.apiVersion ?? '';
  if (m.kind === 'NodePool' && api.startsWith('karpenter.sh/')) {
    const podSpec = mapGet(mapGet(spec, 'template'), 'spec');
    return {
      label: 'NodePool',
      name,
      limits: mapGet(spec, 'limits'),
      requirements: mapGet(podSpec, 'requirements'),
      replicas: mapGet(spec, 'replicas'),
      taints: mapGet(podSpec, 'taints'),
      labels: mapGet(mapGet(mapGet(spec, 'template'), 'metadata'), 'labels'),
      nodeClass: mapGet(mapGet(podSpec, 'nodeClassRef'), 'name'),
    };
  }
  if (m.kind === 'Provisioner' && api.startsWith('karpenter.sh/')) {
    return {
      label: 'Provisioner',
      name,
      limits: mapGet(mapGet(spec, 'limits'), 'resources'),
      requirements: mapGet(spec, 'requirements'),
      replicas: undefined,
      taints: mapGet(spec, 'taints'),
      labels: mapGet(spec, 'labels'),
      nodeClass: mapGet(mapGet(spec, 'providerRef'), 'name'),
    };
  }
  const values = mapGet(m.root, 'nodePool');
  if (m.kind === null && values && (mapGet(values, 'requirements') || mapGet(values, 'limits'))) {
    const valuesName = scalarString(mapGet(m.root, 'name')) ?? '(unnamed)';
    return {
      label: 'NodePool values',
      name: valuesName,
      limits: mapGet(values, 'limits'),
      requirements: mapGet(values, 'requirements'),
      replicas: mapGet(values, 'replicas'),
      taints: mapGet(values, 'taints'),
      labels: mapGet(values, 'labels'),
      nodeClass: mapGet(mapGet(values, 'nodeClassRef'), 'name'),
    };
  }
  return null;
}

function taintKeys(taints: unknown): string[] {
  return seqItems(taints).map((t) => scalarString(mapGet(t, 'key')) ?? '');
}

/** The whole-GPU limits of a pool, summed (one vendor's GPUs do not use up another's limit), at the first one's line. */
type GpuLimit = Result<{ gpus: number; parts: CapacityPart[] }, { resource: string; why: string }> & { line: number };

function readGpuLimit(m: Manifest, limits: unknown): GpuLimit | null {
  const parts: CapacityPart[] = [];
  for (const resource of WHOLE_GPU_RESOURCES) {
    const read = readCount(mapGet(limits, resource), m.ctx, m.line);
    if (!read) continue;
    if (!read.ok) return { ok: false, error: { resource, why: read.error }, line: read.line };
    parts.push({ label: 'limits', resource, gpus: read.value, line: read.line });
  }
  const [first] = parts;
  return first ? { ok: true, value: { gpus: parts.reduce((n, p) => n + p.gpus, 0), parts }, line: first.line } : null;
}

function readPool(m: Manifest, pool: PoolShape, found: Findings): void {
  const reqs = readRequirements(pool.requirements, m.ctx.text);
  const taints = taintKeys(pool.taints);
  // The resource named in messages: the one a limit or GPU taint uses, NVIDIA's by default.
  const gpuPool = reqs.allowsGpu || taints.some(isWholeGpuResource);
  const where = `${pool.label} ${pool.name}`;
  const read = readGpuLimit(m, pool.limits);
  // Karpenter bounds each resource by its own limit: another vendor's limit leaves the NVIDIA
  // instances the requirements allow unbounded, so it is no ceiling for them.
  const otherVendor = read?.ok === true && allowsNvidia(reqs) && !read.value.parts.some((p) => p.resource === PRIMARY_GPU_RESOURCE);
  const limit = otherVendor ? null : read;
  const resource = otherVendor
    ? PRIMARY_GPU_RESOURCE
    : wholeGpuResourceOf([...WHOLE_GPU_RESOURCES.filter((r) => mapGet(pool.limits, r) !== undefined), ...taints]);
  const replicas = readCount(pool.replicas, m.ctx, m.line);
  const model = requirementsModel(reqs);

  if (limit && !limit.ok) {
    found.note(limit.line, 'warning', `${where}: the ${limit.error.resource} limit ${limit.error.why}; the GPU ceiling is not counted`);
    found.unknown(KIND, pool.name, limit.line);
    return;
  }
  if (replicas && !replicas.ok) {
    found.note(replicas.line, 'warning', `${where}: spec.replicas ${replicas.error}; the static pool's GPUs are not counted`);
    if (gpuPool || limit) found.unknown(KIND, pool.name, replicas.line);
    return;
  }
  const perNode = pinnedGpusPerNode(reqs);
  if (replicas?.ok && perNode !== null) {
    const fromReplicas = replicas.value * perNode;
    const gpus = limit?.ok ? Math.min(limit.value.gpus, fromReplicas) : fromReplicas;
    const line = limit?.ok && limit.value.gpus < fromReplicas ? limit.line : replicas.line;
    const parts = limit?.ok && limit.value.gpus < fromReplicas ? limit.value.parts : [{ label: 'replicas', resource, gpus, line }];
    push(found, m, pool.name, model, gpus, line, parts, sharingLink(pool, limit?.ok ? limit.value.gpus : null, fromReplicas, perNode));
    return;
  }
  if (limit?.ok) {
    const { gpus, parts } = limit.value;
    push(found, m, pool.name, model, gpus, limit.line, parts, sharingLink(pool, gpus, null, perNode));
    if (replicas?.ok) {
      found.note(
        replicas.line,
        'info',
        `${where}: static pool of ${replicas.value} nodes${rangeText(reqs)}; counted as its ${resource} limit, ${gpus}`,
      );
    }
    return;
  }
  if (!gpuPool) return;
  if (replicas?.ok) {
    const templated = templatedValue(reqs);
    const why = templated
      ? `the instance type is the template expression ${templated}, unknown until rendered`
      : `the instance type is not pinned${rangeText(reqs)}`;
    found.note(replicas.line, 'warning', `${where}: static pool of ${replicas.value} nodes, but ${why}; its GPU count is unknown`);
    found.unknown(KIND, pool.name, replicas.line);
    return;
  }
  const line = m.line;
  found.note(line, 'warning', `${where}: no ${resource} limit: the pool can grow without bound (GPU instances allowed${choices(reqs)})`);
  found.unknown(KIND, pool.name, line, resource);
}

/** The requirements name NVIDIA GPU instances: a family or type of the clouds' NVIDIA GPUs. */
function allowsNvidia(r: GpuRequirements): boolean {
  return r.families.some(looksLikeGpuFamily) || r.types.some(looksLikeGpuType);
}

function choices(r: GpuRequirements): string {
  if (r.types.length > 0) return `: ${r.types.join(', ')}`;
  if (r.families.length > 0) return `: families ${r.families.join(', ')}`;
  return '';
}

function rangeText(r: GpuRequirements): string {
  const range = gpusPerNodeRange(r);
  if (!range) return choices(r);
  const [lo, hi] = range;
  return `${choices(r)}, ${lo === hi ? lo : `${lo}–${hi}`} GPUs per node`;
}

function push(
  found: Findings,
  m: Manifest,
  name: string,
  gpuModel: string | null,
  gpus: number,
  line: number,
  parts: CapacityPart[],
  link: SharingLink,
): void {
  // NVIDIA's sharing configs say nothing of another vendor's GPUs: such a pool is not linked.
  const nvidiaOnly = parts.every((p) => p.resource === PRIMARY_GPU_RESOURCE);
  const decl: CapacityDecl = {
    file: m.ctx.file,
    line,
    kind: KIND,
    name,
    gpuModel,
    gpus,
    parts,
    ...(nvidiaOnly ? { sharingLink: link } : {}),
  };
  found.decls.push(decl);
}

/** The device-plugin config label and node class of the pool's nodes, for linking a sharing config. */
function sharingLink(pool: PoolShape, limit: number | null, fromNodes: number | null, gpusPerNode: number | null): SharingLink {
  return {
    limit,
    fromNodes,
    deviceConfig: scalarString(mapGet(pool.labels, DEVICE_PLUGIN_CONFIG_LABEL)),
    nodeClass: scalarString(pool.nodeClass),
    gpusPerNode,
  };
}
