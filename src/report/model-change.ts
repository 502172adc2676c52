import type { CapacityChange, ChangeReview, ModelSwap } from '../domain/index.js';
import { usd } from './cost.js';
import { md } from './escape.js';

/**
 * The CLI's words for a change of GPU model (`gpuModelBefore`): `; GPU model A10G → L4`. As many
 * GPUs may stay, so the count alone would read as no change.
 */
export function modelSuffix(c: CapacityChange): string {
  if (c.gpuModelBefore === undefined || c.gpuModel === null) return '';
  return `; GPU model ${c.gpuModelBefore} → ${c.gpuModel}`;
}

/** `+$37,084/month`, or why there is no figure: a swap to a model without a price cannot be costed. */
function monthWords(swap: ModelSwap): string {
  if (swap.usdPerMonthDelta !== null) return `${usd(swap.usdPerMonthDelta, true)}/month`;
  const unpriced = swap.usdPerGpuHourAfter === null ? swap.modelAfter : swap.modelBefore;
  return `cost unknown: no price for ${md(unpriced)}`;
}

/** The counts, when they changed with the model: `, 8 → 4 GPUs`. */
function countWords(swap: ModelSwap): string {
  return swap.gpusBefore === swap.gpusAfter ? ` at ${swap.gpusAfter} GPUs` : `, ${swap.gpusBefore} → ${swap.gpusAfter} GPUs`;
}

/** `GPU model changed on `team-a`: T4 → H100 at 8 GPUs, +$37,084/month`. */
export function modelSwapWords(review: ChangeReview): string {
  const swap = review.modelSwap;
  if (swap === undefined) return '';
  return `GPU model changed on ${md(review.change.name)}: ${md(swap.modelBefore)} → ${md(swap.modelAfter)}${countWords(swap)}, ${monthWords(swap)}`;
}

/**
 * The headline when nothing asks for GPUs but a model changed (to a cheaper or as dear one): it is
 * no cut unless the count fell, so it says what changed. Null without such a swap.
 */
export function swapLine(reviews: readonly ChangeReview[], short: boolean): string | null {
  const swaps = reviews.filter((r) => r.modelSwap !== undefined);
  const first = swaps[0];
  if (first === undefined) return null;
  const more = swaps.length > 1 ? ` and ${swaps.length - 1} more` : '';
  return short
    ? `⚠️ **${modelSwapWords(first)}${more}**: nothing to justify, but a cut is below the need.`
    : `✅ **${modelSwapWords(first)}${more}**: nothing to justify.`;
}
