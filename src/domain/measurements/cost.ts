/** GPU cost of one namespace over the window, as OpenCost allocates it. */
interface NamespaceCost {
  namespace: string;
  /** US dollars; null when OpenCost priced no GPU there. */
  gpuCost: number | null;
}

/** OpenCost's GPU cost by namespace, or why it gave none. */
export type CostMeasurement = { status: 'measured'; namespaces: readonly NamespaceCost[] } | { status: 'missing'; message: string };
