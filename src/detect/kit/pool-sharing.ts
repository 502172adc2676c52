import type { PoolSharing, SharingMode } from '../../domain/index.js';

/**
 * Sharing set on the pool itself (GKE, eksctl Bottlerocket settings): its node count is physical
 * GPUs and the scheduler sees `factor` times as many; factor null when it cannot be read.
 */
export function sharingOnPool(
  source: { file: string; line: number; name: string },
  factor: number | null,
  mode: SharingMode,
  gpus: number,
): PoolSharing {
  return factor === null
    ? { state: 'unknown', code: 'sharing-unreadable', source }
    : { state: 'shared', factor, mode, source, schedulable: gpus * factor };
}
