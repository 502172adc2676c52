/** The resource whose quota is the GPU count when a queue has it. */
export const PRIMARY_GPU_RESOURCE = 'nvidia.com/gpu';

/**
 * Extended resources that stand for whole GPUs or GPU slices: `nvidia.com/gpu`, per-model
 * names (`nvidia.com/gpu-a100`), time-sliced `nvidia.com/gpu.shared`, MIG slices
 * (`nvidia.com/mig-1g.5gb`). Sharing meters such as `nvidia.com/gpucores`,
 * `nvidia.com/total-gpumem` and NICs such as `nvidia.com/roce_gdr` are not GPUs.
 */
const GPU_RESOURCE_RE = /^nvidia\.com\/(?:gpu(?:[-.][a-z0-9][a-z0-9.-]*)?|mig-[a-z0-9][a-z0-9.-]*)$/i;

export function isGpuResource(name: string): boolean {
  return GPU_RESOURCE_RE.test(name);
}

/** Node labels that name the GPU model of a ResourceFlavor's nodes. */
export const GPU_MODEL_LABELS = [
  'nvidia.com/gpu.product',
  'cloud.google.com/gke-accelerator',
  'karpenter.k8s.aws/instance-gpu-name',
] as const;

// Longer names first so A10G is not read as A10, nor L40S as L4.
const KNOWN_MODELS = [
  'GB200', 'B200', 'B100', 'H200', 'H100', 'H800', 'H20', 'A100', 'A800', 'A10G', 'A10',
  'A30', 'A40', 'L40S', 'L40', 'L4', 'T4', 'V100', 'P100', 'P4', 'K80',
];

/** `NVIDIA-A100-SXM4-80GB`, `nvidia-tesla-a100`, `a100` → `A100`; other values as written. */
export function normaliseGpuModel(value: string): string {
  const upper = value.toUpperCase();
  for (const model of KNOWN_MODELS) {
    if (new RegExp(`(?:^|[^A-Z0-9])${model}(?:$|[^A-Z0-9])`).test(upper)) return model;
  }
  return value;
}
