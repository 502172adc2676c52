export type Cloud = 'aws' | 'gcp' | 'azure';

/** One cloud machine type that carries NVIDIA GPUs, with a default price per GPU-hour. */
export interface GpuInstanceType {
  cloud: Cloud;
  type: string;
  gpuModel: string;
  /** GPUs per instance; fractional for instances that get a slice of one GPU (g6f, NVadsA10 v5). */
  gpus: number;
  usdPerGpuHour: number;
}

/** `[type, gpus, usd per instance-hour]` rows of one family; the price per GPU is derived. */
export type FamilyRows = readonly (readonly [type: string, gpus: number, usdPerHour: number])[];

export function family(cloud: Cloud, gpuModel: string, rows: FamilyRows): GpuInstanceType[] {
  return rows.map(([type, gpus, usd]) => ({
    cloud,
    type,
    gpuModel,
    gpus,
    usdPerGpuHour: Math.round((usd / gpus) * 1000) / 1000,
  }));
}
