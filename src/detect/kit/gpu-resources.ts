/** NVIDIA's whole-GPU resource: the name of GPUs read from (NVIDIA) machine types, and the default in messages. */
export const PRIMARY_GPU_RESOURCE = 'nvidia.com/gpu';

/**
 * Whole GPUs as each vendor's device plugin advertises them: NVIDIA, AMD (ROCm device plugin)
 * and Intel (i915 and xe drivers). Where one of these is set, it is the GPU count; per-model
 * names and slices only stand in when none is.
 */
export const WHOLE_GPU_RESOURCES = ['nvidia.com/gpu', 'amd.com/gpu', 'gpu.intel.com/i915', 'gpu.intel.com/xe'] as const;

export function isWholeGpuResource(name: string): boolean {
  return (WHOLE_GPU_RESOURCES as readonly string[]).includes(name);
}

/**
 * Extended resources that stand for whole GPUs or GPU slices: the whole-GPU names above,
 * NVIDIA per-model names (`nvidia.com/gpu-a100`), time-sliced `nvidia.com/gpu.shared`, MIG
 * slices (`nvidia.com/mig-1g.5gb`). Sharing meters such as `nvidia.com/gpucores`,
 * `nvidia.com/total-gpumem`, `gpu.intel.com/millicores`, Intel's `gpu.intel.com/i915_monitoring`
 * and NICs such as `nvidia.com/roce_gdr` are not GPUs.
 */
const GPU_RESOURCE_RE = /^nvidia\.com\/(?:gpu(?:[-.][a-z0-9][a-z0-9.-]*)?|mig-[a-z0-9][a-z0-9.-]*)$/i;

export function isGpuResource(name: string): boolean {
  return isWholeGpuResource(name) || GPU_RESOURCE_RE.test(name);
}

const CORE_RESOURCES = new Set(['cpu', 'memory', 'pods', 'ephemeral-storage', 'storage']);

/**
 * A Kueue resource name backed by Dynamic Resource Allocation that concerns GPUs: a DeviceClass
 * name (`gpu.nvidia.com`) or a device capacity (`gpu.memory`). Extended resources carry a
 * domain and a slash; names without one, other than the core resources, are DRA mappings.
 * They meter GPU devices or their memory, not whole GPUs, so they are never counted.
 */
export function isDraGpuResource(name: string): boolean {
  if (name.includes('/') || CORE_RESOURCES.has(name) || name.startsWith('hugepages-')) return false;
  // DeviceClass and DRA names are DNS subdomains; `gpu_credits` and the like are virtual resources.
  return /^[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?$/.test(name) && /gpu|nvidia|amd|accelerator/.test(name);
}

/** `amd.com/gpu` for an AMD resource, else `nvidia.com/gpu`: the name messages use for a pool's GPUs. */
export function wholeGpuResourceOf(names: readonly string[]): string {
  return names.find(isWholeGpuResource) ?? PRIMARY_GPU_RESOURCE;
}

/** Node labels that name the GPU model of a ResourceFlavor's nodes. */
export const GPU_MODEL_LABELS = [
  'nvidia.com/gpu.product',
  'cloud.google.com/gke-accelerator',
  'karpenter.k8s.aws/instance-gpu-name',
  // ROCm node labeller: `AMD_Instinct_MI300X_OAM`.
  'amd.com/gpu.product-name',
] as const;

export { normaliseGpuModel } from '../../domain/gpu-models.js';

/**
 * Any GPU extended resource or node label written in a file, for the signal scan: NVIDIA's
 * (`nvidia.com/gpu`, `nvidia.com/gpu.shared`, `nvidia.com/mig-1g.10gb`, the `nvidia.com/gpu.product`
 * label), AMD's and Intel's. Accelerators that are not GPUs (`aws.amazon.com/neuron`,
 * `habana.ai/gaudi`, `google.com/tpu`) are not matched: see NOT_GPU_RESOURCES.
 */
export const GPU_RESOURCE_SIGNAL =
  /\b(?:nvidia\.com\/(?:gpu[a-z0-9.-]*|mig-[a-z0-9.-]+)|amd\.com\/gpu[a-z0-9.-]*|gpu\.intel\.com\/[a-z0-9_.-]+)/gi;

/**
 * Node labels that choose how each GPU of a node is partitioned or shared, and so how many GPUs the
 * node advertises: the GPU Operator's MIG layout (`nvidia.com/mig.config: all-1g.5gb` makes one
 * A100 seven) and the device plugin's config (`nvidia.com/device-plugin.config`, time-slicing
 * replicas). They are set wherever nodes get labels (an NFD NodeFeatureRule, a pool's labels, a
 * `kubectl label` script), so a label there sizes capacity. The status the MIG manager writes back
 * (`nvidia.com/mig.config.state`) is not one of them.
 */
export const GPU_PARTITION_LABEL = /\bnvidia\.com\/(?:mig\.config|device-plugin\.config)(?![\w.-])/gi;

/** Device-plugin resources of accelerators that are not GPUs, and what they are. */
export const NOT_GPU_RESOURCES: readonly { resource: string; carries: string }[] = [
  { resource: 'aws.amazon.com/neuron', carries: 'AWS Inferentia and Trainium devices' },
  { resource: 'aws.amazon.com/neuroncore', carries: 'AWS Inferentia and Trainium cores' },
  { resource: 'habana.ai/gaudi', carries: 'Intel Gaudi accelerators' },
  { resource: 'google.com/tpu', carries: 'Cloud TPU chips' },
  { resource: 'xilinx.com/fpga', carries: 'Xilinx FPGAs' },
];
