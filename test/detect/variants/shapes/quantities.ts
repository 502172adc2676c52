/** Fields Kubernetes decodes as a resource.Quantity, which takes a string as well as a number. */
const QUANTITY_KEYS = new Set(['nominalQuota', 'borrowingLimit', 'lendingLimit']);
/** Maps of resource names to quantities (a ResourceList): Karpenter's and Volcano's limits, pods' requests. */
const RESOURCE_LISTS = new Set(['limits', 'requests', 'deserved', 'capability', 'resource']);

/** Whether the value at `keys` (the keys above it and its own) is a quantity. */
export function isQuantity(keys: readonly string[]): boolean {
  const own = keys.at(-1) ?? '';
  return QUANTITY_KEYS.has(own) || RESOURCE_LISTS.has(keys.at(-2) ?? '');
}
