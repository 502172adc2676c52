/**
 * MIG profiles as whole-GPU equivalents. A profile `[Cc.]Ng.Mgb` holds N of the GPU's compute
 * slices (C of them when a compute instance splits the GPU instance); the share of the GPU it
 * stands for is that count over the slices the GPU has. Neither dcgm-exporter nor
 * kube-state-metrics says how many slices a GPU has, so it is taken from the model where
 * DCGM names it and from the profile otherwise: 7 for the A100/H100/H200/B200 class, 4 for the
 * A30 (its profiles are the only ones with 6 GB per slice) and the RTX PRO 6000 Blackwell.
 */

/** kube-state-metrics' `resource` for a mixed-strategy MIG device (`nvidia.com/mig-1g.10gb` sanitised). */
export const KSM_MIG_RESOURCE_PREFIX = 'nvidia_com_mig_';

/** The label dcgm-exporter sets on a MIG instance's series: its profile, `1g.10gb`. */
export const MIG_PROFILE_LABEL = 'GPU_I_PROFILE';

const SEVEN_SLICES = 7;
const FOUR_SLICE_MODELS = /\bA30\b|RTX PRO 6000/i;
const A30_GB_PER_SLICE = 6;

export interface MigProfile {
  /** As dcgm-exporter writes it: `1g.10gb`, `1c.3g.40gb`, `1g.10gb+me`. */
  profile: string;
  /** Compute slices it holds. */
  slices: number;
  /** Compute slices of the whole GPU. */
  slicesPerGpu: number;
  /** slices ÷ slicesPerGpu: the whole-GPU equivalent of one instance. */
  fraction: number;
  /** The slice count of the GPU came from the model DCGM named, not from the profile alone. */
  fromModel: boolean;
}

const PROFILE = /^(?:(\d+)c\.)?(\d+)g\.(\d+)gb(?:[+.].*)?$/;
const RESOURCE = /^nvidia_com_mig_(?:(\d+)c_)?(\d+)g_(\d+)gb(?:_(.+))?$/;

/** `nvidia_com_mig_1g_10gb` → `1g.10gb`; null for any other resource. */
export function profileOfResource(resource: string): string | null {
  const m = RESOURCE.exec(resource);
  if (m === null) return null;
  const [, c, g, gb, rest] = m;
  return `${c === undefined ? '' : `${c}c.`}${g}g.${gb}gb${rest === undefined ? '' : `+${rest}`}`;
}

/** Kueue's `nvidia.com/mig-1g.10gb` → `1g.10gb`; null for any other resource. */
export function profileOfKueueResource(resource: string): string | null {
  const m = /^nvidia\.com\/mig-(.+)$/.exec(resource);
  return m?.[1] ?? null;
}

/** The profile's whole-GPU equivalent; null when the name is not `[Cc.]Ng.Mgb`. */
export function parseMigProfile(profile: string, model?: string): MigProfile | null {
  const m = PROFILE.exec(profile.trim());
  if (m === null) return null;
  const compute = m[1] === undefined ? null : Number(m[1]);
  const g = Number(m[2]);
  const gb = Number(m[3]);
  if (!(g > 0) || !(gb > 0)) return null;
  const fromModel = model !== undefined && model !== '';
  const fourSlices = model !== undefined && model !== '' ? FOUR_SLICE_MODELS.test(model) : gb / g === A30_GB_PER_SLICE;
  const slicesPerGpu = fourSlices ? 4 : SEVEN_SLICES;
  const slices = compute ?? g;
  return { profile, slices, slicesPerGpu, fraction: Math.min(1, slices / slicesPerGpu), fromModel };
}
