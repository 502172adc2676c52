import { lookupInstanceType, looksLikeGpuType } from './gpu-types/index.js';

/** What a node group's machine types say about GPUs per node. */
export type NodeTypeInfo =
  | { kind: 'cpu' }
  | { kind: 'unknown-gpu'; types: string[] }
  | { kind: 'gpu'; gpusPerNode: number; gpuModel: string | null; types: string[]; mixed: boolean };

/**
 * Classifies the machine types a group may launch. With several GPU types the largest count
 * per node is the ceiling; CPU types in a mixed list add no GPUs.
 */
export function classifyTypes(types: readonly string[]): NodeTypeInfo {
  const gpuTypes = types.filter(looksLikeGpuType);
  if (gpuTypes.length === 0) return { kind: 'cpu' };
  const rows = gpuTypes.map(lookupInstanceType);
  const unknown = gpuTypes.filter((_, i) => rows[i] === null);
  if (unknown.length > 0) return { kind: 'unknown-gpu', types: unknown };
  const known = rows.filter((r) => r !== null);
  const models = new Set(known.map((r) => r.gpuModel));
  const counts = new Set(known.map((r) => r.gpus));
  return {
    kind: 'gpu',
    gpusPerNode: Math.max(...known.map((r) => r.gpus)),
    gpuModel: models.size === 1 ? (known[0]?.gpuModel ?? null) : null,
    types: gpuTypes,
    mixed: counts.size > 1 || gpuTypes.length < types.length,
  };
}
