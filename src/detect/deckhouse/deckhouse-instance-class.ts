import { isNode } from 'yaml';
import { readString, readWholeCount } from '../kit/counts.js';
import { namesGpu } from '../kit/gpu-signal.js';
import type { Manifest } from '../kit/manifests.js';
import { classifyTypes } from '../kit/node-types.js';
import { mapGet, nodeLine } from '../kit/yaml-nodes.js';

/** The GPUs of one machine of an instance class, or why they cannot be told. */
export type ClassGpus =
  { kind: 'cpu' } | { kind: 'gpu'; gpus: number; model: string | null; type: string } | { kind: 'unknown'; line: number; why: string };

// Where each cloud provider module's instance class names the machine type (Deckhouse,
// cloud-provider-aws/gcp/azure "Custom resources"): types the cloud catalog lists.
const CATALOG_FIELDS: Readonly<Record<string, string>> = {
  AWSInstanceClass: 'instanceType',
  GCPInstanceClass: 'machineType',
  AzureInstanceClass: 'machineSize',
};

// Classes that state their machines' GPUs as a number (cloud-provider-yandex "YandexInstanceClass":
// `gpus`, default 0, with a GPU `platformID` such as gpu-standard-v3).
const GPU_COUNT_FIELDS: Readonly<Record<string, string>> = {
  YandexInstanceClass: 'gpus',
};

/**
 * A GPU model inside a machine name the provider's operator chose (OpenStack flavors such as
 * OVHcloud's `a100-180`, `l40s-90` or `h100-380`, `g1.a100x2`): a name the type catalogs do not
 * hold, but no CPU machine carries.
 */
const GPU_MODEL_IN_NAME =
  /(?:^|[^a-z0-9])(?:[abhl]\d{2,3}s?|v100s?|p100|t4|l4|gh200|gb\d{3}|b\d{3}|mi\d{3}[a-z]?|rtx[a-z0-9]*|a[2-6]000|tesla)(?=$|[^a-z0-9]|x\d|\d*gb)/i;

/** True for the kinds a NodeGroup's `cloudInstances.classReference` names: `<Provider>InstanceClass`. */
export function isInstanceClass(m: Manifest): boolean {
  return (m.apiVersion ?? '').startsWith('deckhouse.io/') && /InstanceClass$/.test(m.kind ?? '');
}

/**
 * What one machine of the class carries. AWS, GCP and Azure classes name a machine type the catalog
 * knows. The other providers' classes (OpenStack flavors, Yandex platforms, vSphere, VCD, DVP …)
 * size machines in their own terms: a class that names a GPU anywhere is unknown, never 0, and one
 * that names none is CPU.
 */
export function classGpus(m: Manifest): ClassGpus {
  const spec = mapGet(m.root, 'spec');
  const field = CATALOG_FIELDS[m.kind ?? ''];
  if (field !== undefined) {
    const node = mapGet(spec, field);
    const line = nodeLine(node, m.ctx.lc) ?? m.line;
    const type = readString(node, m.ctx);
    if (type === null || 'template' in type) {
      if (!namesGpuIn(spec)) return { kind: 'cpu' };
      return { kind: 'unknown', line, why: type === null ? `sets no ${field}` : `${field} is ${type.template}, unknown until rendered` };
    }
    const info = classifyTypes([type.value]);
    if (info.kind === 'cpu') return { kind: 'cpu' };
    if (info.kind === 'unknown-gpu') return { kind: 'unknown', line, why: `${field} ${type.value} is not in the GPU catalog` };
    return { kind: 'gpu', gpus: info.gpusPerNode, model: info.gpuModel, type: type.value };
  }
  const countField = GPU_COUNT_FIELDS[m.kind ?? ''];
  if (countField !== undefined) {
    const counted = statedGpus(m, spec, countField);
    if (counted !== null) return counted;
  }
  if (!namesGpuIn(spec) && !GPU_MODEL_IN_NAME.test(machineNames(spec))) return { kind: 'cpu' };
  return { kind: 'unknown', line: m.line, why: `names GPUs in terms the review does not count (${m.kind ?? 'instance class'})` };
}

/**
 * The GPUs a class states as a number: that count, or unknown when it cannot be read. Absent,
 * the provider's default of 0 holds only for a class that names no GPU elsewhere (a GPU
 * platform with no count is refused by the cloud, never a CPU machine): null lets the caller judge.
 */
function statedGpus(m: Manifest, spec: unknown, field: string): ClassGpus | null {
  const node = mapGet(spec, field);
  if (node === undefined || node === null) return null;
  const line = nodeLine(node, m.ctx.lc) ?? m.line;
  const read = readWholeCount(node, m.ctx, line);
  if (read === null) return null;
  if (!read.ok) return { kind: 'unknown', line: read.line, why: `${field} ${read.error}` };
  if (read.value === 0) return namesGpuIn(spec, field) ? null : { kind: 'cpu' };
  const platform = readString(mapGet(spec, 'platformID'), m.ctx);
  const type = `${read.value} GPU${read.value === 1 ? '' : 's'}${platform !== null && 'value' in platform ? ` on ${platform.value}` : ''}`;
  return { kind: 'gpu', gpus: read.value, model: null, type };
}

/** The string values of a class's spec but its images and networks, where a machine name may carry a GPU model. */
function machineNames(spec: unknown): string {
  if (!isNode(spec)) return '';
  const json: unknown = spec.toJSON();
  if (typeof json !== 'object' || json === null) return '';
  return Object.entries(json)
    .filter(([k, v]) => typeof v === 'string' && !/image|subnet|network|disk|template|key|secret|zone|region/i.test(k))
    .map(([, v]) => String(v))
    .join(' ');
}

/** True when a key or value names a GPU (but under the key `except`); comments do not count. */
function namesGpuIn(node: unknown, except?: string): boolean {
  if (!isNode(node)) return false;
  const json: unknown = node.toJSON();
  if (except !== undefined && typeof json === 'object' && json !== null && !Array.isArray(json)) {
    return namesGpu(JSON.stringify(Object.fromEntries(Object.entries(json).filter(([k]) => k !== except))));
  }
  return namesGpu(JSON.stringify(json));
}
