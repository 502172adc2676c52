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

/**
 * Minutes shared by two arcs of the day, each given by a start (any minute, taken modulo the
 * day) and a length of at most one day. Arcs may wrap past midnight; the overlap may come in
 * two parts (one arc can touch both ends of the other), so all three day-shifts are summed.
 */
export function arcOverlap(start1: number, len1: number, start2: number, len2: number): number {
  const a = mod(start1, DAY);
  const b = mod(start2, DAY);
  // Unrolled over the shifts −DAY, 0, +DAY: this runs in the lower bound's innermost loop.
  const end1 = a + len1;
  return (
    Math.max(0, Math.min(end1, b - DAY + len2) - Math.max(a, b - DAY)) +
    Math.max(0, Math.min(end1, b + len2) - Math.max(a, b)) +
    Math.max(0, Math.min(end1, b + DAY + len2) - Math.max(a, b + DAY))
  );
}
