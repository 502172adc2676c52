/** GPUs wanted once the policy's headroom for bursts and failures is added. */
export function withHeadroom(gpus: number, headroom: number): number {
  // The epsilon keeps 4 × 1.25 = 5.000000000000001 from rounding up to 6.
  return Math.ceil(gpus * (1 + headroom) - 1e-9);
}
