import { isNode } from 'yaml';
import { readString } from '../kit/counts.js';
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
  if (!namesGpuIn(spec)) return { kind: 'cpu' };
  return { kind: 'unknown', line: m.line, why: `names GPUs in terms the review does not count (${m.kind ?? 'instance class'})` };
}

/** True when a key or value names a GPU; comments do not count. */
function namesGpuIn(node: unknown): boolean {
  return isNode(node) && namesGpu(JSON.stringify(node.toJSON()));
}
