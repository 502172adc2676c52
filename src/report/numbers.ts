/** A share as a percentage: whole numbers, one decimal under 10%, `—` when unmeasured. */
export function pct(fraction: number | null): string {
  if (fraction === null || !Number.isFinite(fraction)) return '—';
  const p = fraction * 100;
  return `${p < 10 && p > 0 ? p.toFixed(1).replace(/\.0$/, '') : Math.round(p)}%`;
}

/** A quantity to three significant figures at most, thousands separated; `—` when unknown. */
export function num(n: number | null, digits = 3): string {
  if (n === null || !Number.isFinite(n)) return '—';
  if (Math.abs(n) >= 10 ** digits) return Math.round(n).toLocaleString('en-US');
  return String(Number(n.toPrecision(digits)));
}

/** Dollars for small unit costs (`$0.000272`), where whole dollars would all read `$0`. */
export function unitUsd(amount: number | null): string {
  if (amount === null || !Number.isFinite(amount)) return '—';
  if (amount >= 100) return `$${Math.round(amount).toLocaleString('en-US')}`;
  if (amount > 0 && amount < 0.000001) return '<$0.000001';
  return `$${Number(amount.toPrecision(3))}`;
}

/** Minutes as `6h`, `1d`, `4h 30m`, `45m`. */
export function duration(minutes: number): string {
  const m = Math.round(minutes);
  if (m >= 1440 && m % 1440 === 0) return `${m / 1440}d`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return h === 0 ? `${rest}m` : rest === 0 ? `${h}h` : `${h}h ${rest}m`;
}

/** A GPU count for text: whole numbers as they are, GPU equivalents of MIG slices to 3 significant digits. */
export function gpusText(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number.parseFloat(x.toPrecision(3)));
}
