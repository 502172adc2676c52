/**
 * The largest file gpu-justify parses, in characters. Parsing is synchronous: a hostile or
 * generated file of many megabytes would hold the App's event loop for seconds, and the files a
 * review reads (capacity declarations, the catalog, the policy) are far smaller.
 */
export const MAX_FILE_CHARS = 1024 * 1024;

/**
 * The most GPUs (or nodes) one declaration may count. No pool or quota declares more: a larger
 * number is a mistake or hostile input, and products of such numbers would overflow.
 */
export const MAX_GPU_COUNT = 1_000_000;

export function describeSize(chars: number): string {
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}
