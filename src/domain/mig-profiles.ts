/**
 * The MIG profiles NVIDIA documents for each MIG-capable GPU (MIG User Guide, "Supported MIG
 * Profiles"): compute slices of the GPU's 7 (4 on the A30), the memory the name gives, and how
 * many such instances one GPU holds. Media-extension (`+me`) and compute-instance variants are
 * left out: a replica is offered a plain GPU instance.
 */
interface MigProfileSpec {
  profile: string;
  /** Compute slices it holds. */
  slices: number;
  /** GB of memory, as the profile's name states it. */
  memoryGB: number;
  /** Instances of it one GPU holds. */
  perGpu: number;
}

export interface MigGpu {
  /** A short name: `A100 40GB`. */
  name: string;
  /** Compute slices of the whole GPU. */
  slices: number;
  profiles: readonly MigProfileSpec[];
}

const p = (profile: string, perGpu: number): MigProfileSpec => {
  const [g, gb] = profile.split('.') as [string, string];
  return { profile, slices: Number(g.replace('g', '')), memoryGB: Number(gb.replace('gb', '')), perGpu };
};

/** The six GPU-instance profiles of a seven-slice GPU, from the smallest, by the memory each name states. */
const sevenSlices = (name: string, gb: [number, number, number, number]): MigGpu => ({
  name,
  slices: 7,
  profiles: [
    p(`1g.${gb[0]}gb`, 7),
    p(`1g.${gb[1]}gb`, 4),
    p(`2g.${gb[1]}gb`, 3),
    p(`3g.${gb[2]}gb`, 2),
    p(`4g.${gb[2]}gb`, 1),
    p(`7g.${gb[3]}gb`, 1),
  ],
});

const A100_40 = sevenSlices('A100 40GB', [5, 10, 20, 40]);
const A100_80 = sevenSlices('A100 80GB', [10, 20, 40, 80]);
const H100_80 = sevenSlices('H100 80GB', [10, 20, 40, 80]);
const H100_94 = sevenSlices('H100 94GB', [12, 24, 47, 94]);
const H200 = sevenSlices('H200 141GB', [18, 35, 71, 141]);
const B200 = sevenSlices('B200 180GB', [23, 45, 90, 180]);
const A30: MigGpu = { name: 'A30 24GB', slices: 4, profiles: [p('1g.6gb', 4), p('2g.12gb', 2), p('4g.24gb', 1)] };

/**
 * The MIG table of a GPU as dcgm-exporter names its model (`NVIDIA A100-SXM4-40GB`), its memory
 * size told by the name or, where the name does not say, by the framebuffer DCGM reports (MiB);
 * null for a GPU without MIG (L4, A10G, T4, L40S …).
 */
export function migGpuFor(modelName: string, totalMiB: number | null): MigGpu | null {
  const m = modelName.toUpperCase();
  const gb = totalMiB === null ? null : totalMiB / 1024;
  if (/\bA30\b/.test(m)) return A30;
  if (/\bB200\b/.test(m)) return B200;
  if (/\bH200\b/.test(m)) return H200;
  if (/\bH100\b/.test(m)) return /NVL|94GB/.test(m) || (gb !== null && gb > 85 && gb < 120) ? H100_94 : H100_80;
  if (/\bA100\b/.test(m)) return /80GB/.test(m) || (!/40GB/.test(m) && gb !== null && gb > 45) ? A100_80 : A100_40;
  return null;
}
