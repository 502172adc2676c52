/** GPU model names as the review speaks of them, and their default prices. */

// Longer names first so A10G is not read as A10, nor L40S as L4.
const KNOWN_MODELS = [
  'GB200',
  'B200',
  'B100',
  'H200',
  'H100',
  'H800',
  'H20',
  'A100',
  'A800',
  'A10G',
  'A10',
  'A30',
  'A40',
  'L40S',
  'L40',
  'L4',
  'T4',
  'V100',
  'P100',
  'P4',
  'K80',
  'MI355X',
  'MI350X',
  'MI325X',
  'MI300X',
  'MI300A',
  'MI250X',
  'MI250',
  'MI210',
  'MI100',
];

/** `NVIDIA-A100-SXM4-80GB`, `nvidia-tesla-a100`, `a100` → `A100`, `AMD_Instinct_MI300X_OAM` → `MI300X`; other values as written. */
export function normaliseGpuModel(value: string): string {
  const upper = value.toUpperCase();
  for (const model of KNOWN_MODELS) {
    if (new RegExp(`(?:^|[^A-Z0-9])${model}(?:$|[^A-Z0-9])`).test(upper)) return model;
  }
  return value;
}

/**
 * Approximate on-demand USD per GPU-hour by model, for pools that name an accelerator rather
 * than a machine type (GKE guest accelerators, Karpenter families). Medians of the list prices
 * of the instance types detect/ knows (src/detect/kit/gpu-types), rounded; defaults only, the
 * policy's `prices` overrides them.
 */
const MODEL_PRICES: Readonly<Record<string, number>> = {
  K80: 0.45,
  P4: 0.6,
  P40: 2.07,
  P100: 1.46,
  V100: 3.06,
  T4: 0.53,
  T4G: 0.42,
  M60: 1.14,
  A10: 1.6,
  A10G: 1.21,
  L4: 0.85,
  L40S: 2.24,
  A100: 3.67,
  H100: 6.88,
  H200: 7.91,
  B200: 14.24,
  GB200: 16.0,
  'RTX PRO 6000': 6.38,
};

export function defaultPricePerGpuHour(gpuModel: string): number | null {
  return MODEL_PRICES[gpuModel] ?? MODEL_PRICES[normaliseGpuModel(gpuModel)] ?? null;
}

/**
 * The price per GPU-hour for a model: the override map first (the policy's `prices`), then the
 * default. Pure, so the review can apply the policy later with the same function.
 */
export function pricePerGpuHour(gpuModel: string | null, overrides: Readonly<Record<string, number>> = {}): number | null {
  if (gpuModel === null) return null;
  const own = overrides[gpuModel];
  if (own !== undefined) return own;
  return defaultPricePerGpuHour(gpuModel);
}
