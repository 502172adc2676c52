import { readString, readWholeCount } from '../kit/counts.js';
import { namesGpu } from '../kit/gpu-signal.js';
import { normaliseGpuModel } from '../../domain/gpu-models.js';
import { acceleratorModel } from '../kit/gpu-types/index.js';
import type { NodeContext } from '../kit/manifests.js';
import { classifyTypes } from '../kit/node-types.js';
import { isNode } from 'yaml';
import { mapGet, nodeLine } from '../kit/yaml-nodes.js';
import type { ProfileType, ProfileTypes } from './gardener-cloud-profile.js';

/** The GPUs on one machine of a worker pool, or why they cannot be told. */
export type WorkerGpus =
  | { kind: 'cpu' }
  | { kind: 'gpu'; gpus: number; model: string | null; label: string }
  | { kind: 'unknown'; line: number; why: string }
  /** A machine type of a provider whose flavours may be GPUs, with no CloudProfile in the review to say. */
  | { kind: 'unprofiled'; line: number; type: string };

// The providers whose machine types the cloud catalog (kit/gpu-types) lists: a type it does not
// take for a GPU type is a CPU type there. Other providers (OpenStack, Alicloud, STACKIT, IronCore,
// Hetzner …) name their machine types in the CloudProfile, so a GPU machine may have any name.
const CATALOG_PROVIDERS = new Set(['aws', 'gcp', 'azure']);
// gardener-extension-provider-local's machines are pods of the seed: never GPUs.
const NO_GPU_PROVIDERS = new Set(['local']);
// Providers whose flavours are named by the operator of the cloud, GPU flavours with no GPU word
// among them (OpenStack's `g1.xlarge`, STACKIT's, IronCore's machine classes): only the
// CloudProfile's `machineTypes[].gpu` tells. Without it, a pool of such a type may be GPUs.
const FLAVOUR_PROVIDERS = new Set(['openstack', 'stackit', 'ironcore', 'ironcore-metal', 'metal', 'onmetal']);

/** Where a worker names its machine type, and the GPUs its CloudProfile gives the types it lists. */
export interface WorkerTypeSource {
  /** The node of the machine type: a Shoot's `machine.type`, an extension Worker's `machineType`. */
  typeNode: unknown;
  /** The CloudProfile the pool's cluster names, when the review holds it: its GPUs per machine type. */
  profile?: ProfileTypes;
}

/**
 * Reads a worker's GPUs per machine as the provider extension builds its machines:
 * the machine type from the cloud's catalog, and on GCP the accelerators the worker's
 * `providerConfig.gpu` attaches (gardener-extension-provider-gcp, "WorkerConfig": `acceleratorType`
 * and `count` per node, also given for the a2/g2 types whose GPUs are built in). A type the
 * catalog does not take for a GPU type is looked up in the Shoot's CloudProfile when the review
 * holds it (its `machineTypes[].gpu`, what Gardener's autoscaler takes a machine of the type to
 * have). Failing both, a machine type on a provider whose types the catalog does not list is
 * unknown as soon as the worker names a GPU anywhere (its type, labels, taints, provider config).
 */
export function workerGpus(
  worker: unknown,
  provider: string | null,
  ctx: NodeContext,
  fallbackLine: number,
  source: WorkerTypeSource,
): WorkerGpus {
  const typeNode = source.typeNode;
  const typeLine = nodeLine(typeNode, ctx.lc) ?? fallbackLine;
  const type = readString(typeNode, ctx);
  const attached = attachedGpus(worker, ctx, fallbackLine);
  if (attached.kind === 'unknown') return attached;
  if (type === null || 'template' in type) {
    if (!namesGpuIn(worker) && attached.kind === 'none') return { kind: 'cpu' };
    const why = type === null ? 'has no machine.type' : `has the machine type ${type.template}, unknown until rendered`;
    return { kind: 'unknown', line: typeLine, why };
  }
  const info = classifyTypes([type.value]);
  if (info.kind === 'unknown-gpu') return { kind: 'unknown', line: typeLine, why: `machine type ${type.value} is not in the GPU catalog` };
  const builtIn = info.kind === 'gpu' ? { gpus: info.gpusPerNode, model: info.gpuModel } : null;
  if (attached.kind === 'gpu') {
    // The a2/g2 types repeat their built-in GPUs here; a machine never has fewer than its type's.
    const gpus = Math.max(attached.gpus, builtIn?.gpus ?? 0);
    return { kind: 'gpu', gpus, model: attached.model ?? builtIn?.model ?? null, label: `${type.value} + ${attached.label}` };
  }
  if (builtIn !== null) return { kind: 'gpu', gpus: builtIn.gpus, model: builtIn.model, label: type.value };
  const listed = source.profile?.types.get(type.value);
  if (listed !== undefined) return fromProfile(listed, type.value, source.profile?.name ?? '', typeLine);
  const cloud = (provider ?? '').toLowerCase();
  if (CATALOG_PROVIDERS.has(cloud) || NO_GPU_PROVIDERS.has(cloud)) return { kind: 'cpu' };
  if (!namesGpuIn(worker) && gpuModelIn(type.value) === null) {
    // A profile in the review that does not list the type is one Gardener refuses the Shoot with.
    return FLAVOUR_PROVIDERS.has(cloud) && source.profile === undefined
      ? { kind: 'unprofiled', line: typeLine, type: type.value }
      : { kind: 'cpu' };
  }
  const on = provider === null ? 'a provider the Shoot does not name' : `provider ${provider}`;
  return {
    kind: 'unknown',
    line: typeLine,
    why: `machine type ${type.value} of ${on} names GPUs its CloudProfile counts, which the review does not read`,
  };
}

function fromProfile(listed: ProfileType, type: string, profile: string, line: number): WorkerGpus {
  if (listed.kind === 'unknown')
    return { kind: 'unknown', line, why: `machine type ${type} of CloudProfile ${profile} has a gpu of ${listed.why}` };
  if (listed.gpus === 0) return { kind: 'cpu' };
  return { kind: 'gpu', gpus: listed.gpus, model: gpuModelIn(type), label: `${type} (${listed.gpus} GPUs in CloudProfile ${profile})` };
}

type Attached =
  { kind: 'none' } | { kind: 'gpu'; gpus: number; model: string | null; label: string } | { kind: 'unknown'; line: number; why: string };

/** GCP's `providerConfig.gpu`: `count` accelerators of `acceleratorType` on every machine. */
function attachedGpus(worker: unknown, ctx: NodeContext, fallbackLine: number): Attached {
  const gpu = mapGet(mapGet(worker, 'providerConfig'), 'gpu');
  if (gpu === undefined || gpu === null) return { kind: 'none' };
  const line = nodeLine(gpu, ctx.lc) ?? fallbackLine;
  const count = readWholeCount(mapGet(gpu, 'count'), ctx, line);
  if (count === null) return { kind: 'unknown', line, why: 'providerConfig.gpu has no count' };
  if (!count.ok) return { kind: 'unknown', line: count.line, why: `providerConfig.gpu.count ${count.error}` };
  if (count.value === 0) return { kind: 'none' };
  const accelerator = readString(mapGet(gpu, 'acceleratorType'), ctx);
  const name = accelerator !== null && 'value' in accelerator ? accelerator.value : null;
  const model = name === null ? null : acceleratorModel(name);
  return { kind: 'gpu', gpus: count.value, model, label: `${count.value} × ${name ?? 'accelerator'}` };
}

/**
 * The GPU model a machine type's name spells out as a word of its own (`g1.xlarge.a100`,
 * `gpu-h100-8`, `n3-L40S-2`), as the review names models (domain/gpu-models.ts), or null. OpenStack,
 * STACKIT and other CloudProfiles name their GPU flavours so, with no GPU word beside the model.
 */
function gpuModelIn(type: string): string | null {
  // A prefix keeps a type that is a bare model name (`A100`) from reading as "as written".
  const marked = `type-${type}`;
  const model = normaliseGpuModel(marked);
  return model === marked ? null : model;
}

/** True when a key or value of the worker names a GPU; its comments do not count. */
function namesGpuIn(worker: unknown): boolean {
  return isNode(worker) && namesGpu(JSON.stringify(worker.toJSON()));
}
