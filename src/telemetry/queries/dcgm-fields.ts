import { itemAt } from '../../util/indexed.js';

/**
 * The DCGM profiling fields under both of their names. dcgm-exporter's counters CSVs (every tag
 * through 4.5.3-4.8.2 and main) write the legacy names (`DCGM_FI_PROF_*_ACTIVE`), and the series
 * take the name written there; DCGM's field naming standard renamed the same field ids
 * (1001, 1002, 1004, 1005) to `*_UTIL_RATIO`, so a CSV written with the new names yields series
 * under them. Both are DCGM_FT_DOUBLE ratios, 0–1: no unit changes between the two.
 *
 * DCGM_FI_DEV_GPU_UTIL (percent) has no second name read here: its new name,
 * DCGM_FI_DEV_GPU_UTIL_RATIO, says ratio while DCGM keeps field 203 an INT64 percent, so a series
 * under that name has no unit to trust. Framebuffer fields keep their names (MiB) in every
 * release read.
 */
export const DCGM_PROF = {
  gr: ['DCGM_FI_PROF_GR_ENGINE_ACTIVE', 'DCGM_FI_PROF_GR_ENGINE_UTIL_RATIO'],
  sm: ['DCGM_FI_PROF_SM_ACTIVE', 'DCGM_FI_PROF_SM_UTIL_RATIO'],
  tensor: ['DCGM_FI_PROF_PIPE_TENSOR_ACTIVE', 'DCGM_FI_PROF_TENSOR_UTIL_RATIO'],
  dram: ['DCGM_FI_PROF_DRAM_ACTIVE', 'DCGM_FI_PROF_DRAM_UTIL_RATIO'],
} as const satisfies Record<string, readonly [string, string]>;

export type DcgmNames = readonly string[];

/**
 * One series per GPU (or instance) from whichever name it carries: `or` matches label sets
 * without the metric name, so a GPU exported under both names counts once, by the legacy name.
 */
export function eitherName(names: DcgmNames, series: (metric: string) => string): string {
  return names.length === 1 ? series(itemAt(names, 0, 'one name, checked')) : `(${names.map(series).join(' or ')})`;
}

/** `legacy` or `new`, for a query's `what`. */
export const namesOf = (names: DcgmNames) => names.join(' or ');
