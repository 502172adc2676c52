/** Minutes in the repeating day the planner works on. */
export const DAY = 1440;

/** `x` modulo `m`, always in [0, m). */
export function mod(x: number, m: number): number {
  return ((x % m) + m) % m;
}

export function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/** Smallest integer ≥ a / b, exact for integers (no floating-point rounding at whole quotients). */
export function ceilDiv(a: number, b: number): number {
  const q = Math.floor(a / b);
  return q * b < a ? q + 1 : q;
}
