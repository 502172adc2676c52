/**
 * Kubernetes resource quantities (k8s.io/apimachinery resource.Quantity):
 * `<signedNumber><suffix>` where the suffix is a binary SI suffix (Ki…Ei), a decimal SI
 * suffix (n, u, m, k, M, G, T, P, E) or a decimal exponent (e3, E-2). `1E` is exa, `1e3`
 * is an exponent.
 */
const QUANTITY_RE = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([eE][+-]?\d+)|(n|u|m|k|M|G|T|P|E))?$/;

const BINARY_POWER: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL_EXPONENT: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

/** The value of a YAML number or quantity string, or null when it is not a quantity. */
export function parseQuantity(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const m = QUANTITY_RE.exec(value);
  if (!m) return null;
  const [, mantissa = '', binary, exponent, decimal] = m;
  let result: number;
  if (binary !== undefined) {
    result = Number(mantissa) * 1024 ** (BINARY_POWER[binary] ?? 0);
  } else if (exponent !== undefined) {
    // Number() parses the decimal string exactly, avoiding 0.1 * 1000 style rounding.
    result = Number(`${mantissa}${exponent}`);
  } else if (decimal !== undefined) {
    result = Number(`${mantissa}e${DECIMAL_EXPONENT[decimal] ?? 0}`);
  } else {
    result = Number(mantissa);
  }
  return Number.isFinite(result) ? result : null;
}
