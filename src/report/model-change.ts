import type { CapacityChange } from '../domain/index.js';

/**
 * The CLI's words for a change of GPU model (`gpuModelBefore`): `; GPU model A10G → L4`. As many
 * GPUs may stay, so the count alone would read as no change.
 */
export function modelSuffix(c: CapacityChange): string {
  if (c.gpuModelBefore === undefined || c.gpuModel === null) return '';
  return `; GPU model ${c.gpuModelBefore} → ${c.gpuModel}`;
}
