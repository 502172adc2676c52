import { normaliseGpuModel } from '../../../domain/gpu-models.js';

/** GPUs on one node of a pool, and their model when it is known. */
export interface NodeShape {
  gpus: number;
  model: string | null;
}

/**
 * Nebius AI Cloud GPU platforms and the GPU each carries. Source: Nebius documentation, "Types of
 * virtual machines and GPUs" (platforms gpu-h100-sxm, gpu-h200-sxm, gpu-b200-sxm, gpu-b300-sxm,
 * gpu-l40s-a, gpu-l40s-d); CPU platforms are `cpu-d3`, `cpu-e2`.
 */
export const NEBIUS_PLATFORMS: Readonly<Record<string, string>> = {
  'gpu-h100-sxm': 'H100',
  'gpu-h200-sxm': 'H200',
  'gpu-b200-sxm': 'B200',
  'gpu-b200-sxm-a': 'B200',
  'gpu-b300-sxm': 'B300',
  'gpu-l40s-a': 'L40S',
  'gpu-l40s-d': 'L40S',
};

// A Nebius preset names its GPUs first: `8gpu-128vcpu-1600gb`, `1gpu-16vcpu-200gb`; CPU presets
// start with the vCPUs: `16vcpu-64gb`. Source: the presets table of the same documentation page.
const NEBIUS_PRESET = /^([0-9]+)gpu-[0-9]+vcpu-[0-9]+gb$/;

/**
 * The GPUs per node of a Nebius node group from its platform and preset: a shape, `cpu` for a
 * group with no GPUs, or null when its GPUs cannot be told (a GPU platform whose preset does not
 * name them).
 */
export function nebiusShape(platform: string | null, preset: string): NodeShape | 'cpu' | null {
  const m = NEBIUS_PRESET.exec(preset.trim().toLowerCase());
  const model = platform === null ? null : nebiusModel(platform);
  if (m?.[1] !== undefined) {
    const gpus = Number(m[1]);
    return gpus >= 1 && gpus <= 64 ? { gpus, model } : null;
  }
  if (platform !== null && isNebiusGpuPlatform(platform)) return null;
  // A preset naming no GPUs on a CPU (or unstated) platform: no GPUs.
  return /^[0-9]+vcpu-[0-9]+gb$/.test(preset.trim().toLowerCase()) ? 'cpu' : null;
}

export const isNebiusGpuPlatform = (platform: string): boolean => /^gpu-/.test(platform.trim().toLowerCase());

function nebiusModel(platform: string): string | null {
  const p = platform.trim().toLowerCase();
  const known = NEBIUS_PLATFORMS[p];
  if (known) return known;
  if (!isNebiusGpuPlatform(p)) return null;
  const token = p.split('-')[1] ?? '';
  const model = normaliseGpuModel(token);
  return model === token ? token.toUpperCase() : model;
}

/**
 * Crusoe Cloud instance types: `<GPU>[-<memory>gb][-<form>…].<GPUs>x`, e.g. `a100-80gb.1x` (one
 * A100), `h100-80gb-sxm-ib.8x` (eight H100), `l40s-48gb.10x` (ten L40S); CPU types lead with a
 * CPU family: `c1a.16x`, `s1a.80x`. Source: Crusoe Cloud documentation, "Instance types", and the
 * examples of crusoecloud/terraform-provider-crusoe.
 */
const CRUSOE_GPU = /^((?:[abhl][0-9]{2,3}s?|gb[0-9]{3}|mi[0-9]{3}x|rtx[a-z0-9]*))(?:-[0-9]+gb)?(?:-[a-z0-9]+)*\.([0-9]+)x$/;
const CRUSOE_CPU = /^(?:c1a|s1a|c1b|s1b)\.[0-9]+x$/;

/** The GPUs per node of a Crusoe instance type; `cpu` for CPU types; null when not known. */
export function crusoeShape(type: string): NodeShape | 'cpu' | null {
  const t = type.trim().toLowerCase();
  if (CRUSOE_CPU.test(t)) return 'cpu';
  const m = CRUSOE_GPU.exec(t);
  if (m?.[1] === undefined || m[2] === undefined) return null;
  const gpus = Number(m[2]);
  if (gpus < 1 || gpus > 64) return null;
  const model = normaliseGpuModel(m[1]);
  return { gpus, model: model === m[1] ? m[1].toUpperCase() : model };
}

/**
 * OCI Compute GPU shapes: `[shape, GPUs, model]`. Source: Oracle Cloud Infrastructure
 * documentation, "Compute Shapes", GPU shapes (bare metal `BM.GPU*`, virtual machine `VM.GPU*`).
 */
export const OCI_GPU_SHAPES: readonly (readonly [shape: string, gpus: number, model: string])[] = [
  ['VM.GPU2.1', 1, 'P100'],
  ['BM.GPU2.2', 2, 'P100'],
  ['VM.GPU3.1', 1, 'V100'],
  ['VM.GPU3.2', 2, 'V100'],
  ['VM.GPU3.4', 4, 'V100'],
  ['BM.GPU3.8', 8, 'V100'],
  ['BM.GPU4.8', 8, 'A100'],
  ['BM.GPU.A100-v2.8', 8, 'A100'],
  ['VM.GPU.A10.1', 1, 'A10'],
  ['VM.GPU.A10.2', 2, 'A10'],
  ['BM.GPU.A10.4', 4, 'A10'],
  ['BM.GPU.L40S.4', 4, 'L40S'],
  ['BM.GPU.L40S-NC.4', 4, 'L40S'],
  ['BM.GPU.H100.8', 8, 'H100'],
  ['BM.GPU.H100-NC.8', 8, 'H100'],
  ['BM.GPU.H200.8', 8, 'H200'],
  ['BM.GPU.H200-NC.8', 8, 'H200'],
  ['BM.GPU.B200.8', 8, 'B200'],
  ['BM.GPU.GB200.4', 4, 'GB200'],
  ['BM.GPU.MI300X.8', 8, 'MI300X'],
];

const OCI = new Map(OCI_GPU_SHAPES.map(([shape, gpus, model]) => [shape.toLowerCase(), { gpus, model }]));

/** The GPUs per node of an OCI shape; `cpu` for a shape that is not a GPU shape; null when not listed. */
export function ociShape(shape: string): NodeShape | 'cpu' | null {
  const s = shape.trim().toLowerCase();
  const known = OCI.get(s);
  if (known) return known;
  return /^(?:bm|vm)\.gpu/.test(s) ? null : 'cpu';
}

/**
 * Civo sizes. GPU sizes lead with `an.` (`an.g1.l40s.kube.x1`, `an.g1.h100.kube.x8`,
 * `an.g1.h200sxm.kube.x8`: the GPUs are the `x<N>` that ends the name) or `g4g.` (`g4g.kube.small`
 * one A100 80GB, `g4g.40.kube.small` one A100 40GB; larger g4g sizes do not say how many). Every other
 * size (`g4s.kube.large`, `g4c.*`, `g4m.*`, `g4p.*`, `g3.*`) is CPU, whatever its `g` suggests: Civo's
 * `/v2/sizes` reports no GPU for them. Sources: Civo's `civo sizes ls` listing of GPU sizes, and
 * civo/llm-boilerplate, which picks GPU sizes by the prefixes `g4g.` and `an.`.
 */
const CIVO_AN = /^an\.g[0-9]+\.([a-z0-9]+)(?:\.[a-z0-9]+)*\.x([0-9]+)$/;
const CIVO_G4G_ONE = /^g4g\.(?:40\.)?kube\.small$/;
const isCivoGpuSize = (size: string): boolean => /^(?:an\.|g4g\.)/.test(size.trim().toLowerCase());

/** The GPUs per node of a Civo size; `cpu` for a size that is not a GPU size; null when not known. */
export function civoShape(size: string): NodeShape | 'cpu' | null {
  const s = size.trim().toLowerCase();
  const an = CIVO_AN.exec(s);
  if (an?.[1] !== undefined && an[2] !== undefined) {
    const gpus = Number(an[2]);
    if (gpus < 1 || gpus > 64) return null;
    // `h200sxm`, `b200sxm`: the form follows the model.
    const token = an[1].replace(/(?:sxm|pcie|nvl)[0-9]*$/, '');
    const model = normaliseGpuModel(token);
    return { gpus, model: model === token ? token.toUpperCase() : model };
  }
  if (CIVO_G4G_ONE.test(s)) return { gpus: 1, model: 'A100' };
  return isCivoGpuSize(s) ? null : 'cpu';
}
