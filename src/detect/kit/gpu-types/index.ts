import { normaliseGpuModel } from '../../../domain/gpu-models.js';
import { AWS_FAMILY_MODELS, AWS_TYPES } from './aws.js';
import { AZURE_TYPES } from './azure.js';
import { GCP_TYPES, GKE_ACCELERATORS } from './gcp.js';
import type { GpuInstanceType } from './types.js';

export type { GpuInstanceType } from './types.js';
export { civoShape, crusoeShape, isNebiusGpuPlatform, nebiusShape, ociShape } from './neoclouds.js';
export type { NodeShape } from './neoclouds.js';

const EXACT = new Map<string, GpuInstanceType>();
for (const t of [...AWS_TYPES, ...GCP_TYPES]) EXACT.set(t.type, t);
// Azure treats VM size names case-insensitively (`Standard_NC40ADS_H100_V5` is accepted).
const AZURE = new Map<string, GpuInstanceType>(AZURE_TYPES.map((t) => [t.type.toLowerCase(), t]));

/** The catalog entry for an instance / machine / VM type, or null when it is not listed. */
export function lookupInstanceType(type: string): GpuInstanceType | null {
  const trimmed = withoutSageMakerPrefix(type.trim());
  return EXACT.get(trimmed) ?? AZURE.get(trimmed.toLowerCase()) ?? null;
}

// SageMaker (HyperPod, endpoints) names EC2 instance types with an `ml.` prefix: ml.g5.8xlarge.
const withoutSageMakerPrefix = (type: string): string => (/^ml\.[a-z0-9-]+\.[a-z0-9]+$/.test(type) ? type.slice(3) : type);

// p3, p4d, p5e, p6-b200, g4dn, g5, g5g, g6, g6e, g6f, gr6, g7e … (g4ad is AMD, g3 retired but NVIDIA).
const AWS_GPU_RE = /^(?:p[2-9][a-z]*(?:-[a-z0-9]+)?|g[3-9][a-z]*|gr6)\.[a-z0-9]+$/;
const GCP_GPU_RE = /^(?:a[2-4]|g2|g4)-[a-z]+-\d+g?$/;
// NC / ND / NV sizes; the AMD ones (NVv4 `_v4` with `as`, ND MI300X) are excluded below.
const AZURE_GPU_RE = /^standard_n[cdv]\d/i;
const AZURE_NOT_NVIDIA_RE = /mi300x|^standard_nv\d+as_v4$/i;

/** True when the name looks like a GPU machine type, so an unknown one earns a diagnostic. */
export function looksLikeGpuType(type: string): boolean {
  const t = withoutSageMakerPrefix(type.trim());
  if (lookupInstanceType(t)) return true;
  if (AWS_GPU_RE.test(t)) return !/^g4ad\./.test(t);
  if (GCP_GPU_RE.test(t)) return true;
  return AZURE_GPU_RE.test(t) && !AZURE_NOT_NVIDIA_RE.test(t);
}

/** EC2 family (`g6e`, `p5`) → GPU model, or null for families without NVIDIA GPUs. */
export function awsFamilyModel(familyName: string): string | null {
  return AWS_FAMILY_MODELS[familyName.trim()] ?? null;
}

/** True when the EC2 family is a GPU family, listed or not (`g7e`, `p6e-gb200`). */
export function looksLikeGpuFamily(familyName: string): boolean {
  return awsFamilyModel(familyName) !== null || looksLikeGpuType(`${familyName.trim()}.xlarge`);
}

/** GKE accelerator type → GPU model: `nvidia-tesla-a100` → `A100`, `nvidia-h100-80gb` → `H100`. */
export function acceleratorModel(acceleratorType: string): string | null {
  const t = acceleratorType.trim().toLowerCase();
  const known = GKE_ACCELERATORS[t];
  if (known) return known;
  if (!t.startsWith('nvidia-')) return null;
  const model = normaliseGpuModel(t);
  return model === t ? null : model;
}

export { defaultPricePerGpuHour, pricePerGpuHour } from '../../../domain/gpu-models.js';

export const HOURS_PER_MONTH = 730;

/** All catalog rows, for tests and listings. */
export const GPU_INSTANCE_TYPES: readonly GpuInstanceType[] = [...AWS_TYPES, ...GCP_TYPES, ...AZURE_TYPES];
