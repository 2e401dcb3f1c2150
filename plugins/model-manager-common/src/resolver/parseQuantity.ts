const SUFFIXES: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY =
  /^\+?([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei|[eE][-+]?[0-9]+)?$/;

/**
 * A Kubernetes resource quantity as a number (bytes for memory): `16Gi`, `500M`, `1e9`, `8`.
 * Follows k8s.io/apimachinery/pkg/api/resource (binary Ki..Ei, decimal k..E, m, exponent).
 * Returns undefined for anything else.
 */
export function parseQuantity(quantity: string | number): number | undefined {
  if (typeof quantity === 'number')
    return Number.isFinite(quantity) ? quantity : undefined;
  const match = QUANTITY.exec(quantity);
  if (!match) return undefined;
  const [, digits, suffix = ''] = match;
  const multiplier = /^[eE]/.test(suffix)
    ? 10 ** Number(suffix.slice(1))
    : SUFFIXES[suffix];
  return Number(digits) * multiplier;
}
