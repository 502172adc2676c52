/**
 * Why a change of GPU model asks for its GPUs, or does not:
 * - `dearer-model`: the head's model costs more per GPU-hour than the base's;
 * - `unpriced-model`: a price the comparison needs is unknown, so it cannot be shown cheaper;
 * - `cost-rises`: the models cost the same per GPU-hour but the head's GPUs cost more a month;
 * - `cheaper-model`: the head's model costs less per GPU-hour and the month costs no more;
 * - `same-price`: the same price per GPU-hour and the month costs no more.
 */
export type ModelSwapCode = 'dearer-model' | 'unpriced-model' | 'cost-rises' | 'cheaper-model' | 'same-price';

/**
 * A change whose GPU model differs between base and head. When it `asks`, every GPU of the head
 * side is new hardware to justify (`gpusAsked` = the head's count), judged as demand on that model.
 */
export interface ModelSwap {
  code: ModelSwapCode;
  asks: boolean;
  modelBefore: string;
  modelAfter: string;
  gpusBefore: number;
  gpusAfter: number;
  /** The GPUs the swap asks to justify: the head's count when it asks, else 0. */
  gpusAsked: number;
  usdPerGpuHourBefore: number | null;
  usdPerGpuHourAfter: number | null;
  /** The head's GPUs a month less the base's; null when a price is unknown. */
  usdPerMonthDelta: number | null;
}
