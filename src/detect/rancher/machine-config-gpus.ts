import { isNode } from 'yaml';
import { normaliseGpuModel } from '../../domain/gpu-models.js';
import { readString } from '../kit/counts.js';
import { namesGpu } from '../kit/gpu-signal.js';
import type { Manifest } from '../kit/manifests.js';
import { classifyTypes } from '../kit/node-types.js';
import { mapGet, nodeLine } from '../kit/yaml-nodes.js';

/** The GPUs of one machine a Rancher machine config makes, or why they cannot be told. */
export type MachineGpus =
  { kind: 'cpu' } | { kind: 'gpu'; gpus: number; model: string | null; type: string } | { kind: 'unknown'; line: number; why: string };

/**
 * The field that names the cloud's machine type in each node driver's machine config
 * (rke-machine-config.cattle.io, the fields of rancher-machine's drivers as the Rancher UI writes
 * them): the review's cloud catalog counts the GPUs of the AWS, Azure and GCP types.
 */
const TYPE_FIELDS: Readonly<Record<string, string>> = {
  Amazonec2Config: 'instanceType',
  AzureConfig: 'size',
  GoogleConfig: 'machineType',
  DigitaloceanConfig: 'size',
  LinodeConfig: 'instanceType',
  OpenstackConfig: 'flavorName',
};

const CATALOG_DRIVERS = new Set(['Amazonec2Config', 'AzureConfig', 'GoogleConfig']);

/**
 * Reads a machine config's GPUs per machine: its machine type from the catalog; a type the
 * catalog does not know, or a driver with no machine type (vSphere, Harvester, Nutanix: the VM is
 * described by CPUs, memory, a template or PCI devices), is unknown as soon as the config names
 * a GPU anywhere (a vGPU profile, a PCI device, a GPU model in the flavour's name), else CPU.
 */
export function machineConfigGpus(config: Manifest): MachineGpus {
  const field = TYPE_FIELDS[config.kind ?? ''];
  // Some configs keep their fields under `spec` (written by hand), most at the top (as Rancher writes them).
  const holder = mapGet(config.root, 'spec') ?? config.root;
  const typeNode = field === undefined ? undefined : (mapGet(holder, field) ?? mapGet(config.root, field));
  const line = nodeLine(typeNode, config.ctx.lc) ?? config.line;
  const type = readString(typeNode, config.ctx);
  const where = `${config.kind ?? 'machine config'} ${config.name ?? '(unnamed)'}`;
  if (type !== null && 'template' in type)
    return unknownIfGpu(config, line, `${where} has the machine type ${type.template}, unknown until rendered`);
  if (type === null) return unknownIfGpu(config, line, `${where} names a GPU the review cannot count per machine`);
  const info = classifyTypes([type.value]);
  if (info.kind === 'gpu') return { kind: 'gpu', gpus: info.gpusPerNode, model: info.gpuModel, type: type.value };
  if (info.kind === 'unknown-gpu') return { kind: 'unknown', line, why: `${where}: machine type ${type.value} is not in the GPU catalog` };
  // The catalog lists every GPU type of these clouds: any other type of theirs is a CPU machine.
  if (CATALOG_DRIVERS.has(config.kind ?? '')) return { kind: 'cpu' };
  const marked = `type-${type.value}`;
  if (normaliseGpuModel(marked) !== marked)
    return { kind: 'unknown', line, why: `${where}: machine type ${type.value} names a GPU model the catalog does not count` };
  return unknownIfGpu(config, line, `${where}: machine type ${type.value} is not in the catalog, and the config names a GPU`);
}

function unknownIfGpu(config: Manifest, line: number, why: string): MachineGpus {
  return isNode(config.root) && namesGpu(JSON.stringify(config.root.toJSON())) ? { kind: 'unknown', line, why } : { kind: 'cpu' };
}
