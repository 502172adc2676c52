import type { PathNode } from './structure.js';

// Blocks of Terraform's JSON syntax by how many labels name one (tf-json.ts reads them alike).
const TWO_LABELS = new Set(['resource', 'data', 'ephemeral']);
const ONE_LABEL = new Set(['module', 'variable', 'output', 'provider', 'check']);
const NO_LABEL = new Set(['locals', 'terraform', 'import', 'moved', 'removed']);

/**
 * True for the value of a `"//"` property of a `.tf.json` file's top-level object or of a
 * top-level block's body: Terraform's JSON syntax takes it for a comment, whatever it names.
 * A `"//"` deeper down (in a nested block or an attribute's object) is left a signal: without the
 * provider's schema a nested block and a map value look alike, and in a map it is a real key.
 */
export function tfJsonComment(path: PathNode | null): boolean {
  if (path?.key !== '//') return false;
  const keys: string[] = [];
  // Lists (`[]`) stand for a block written as a list of bodies, and for the file object itself.
  for (let n: PathNode | null = path; n; n = n.parent) if (n.key !== '[]') keys.unshift(n.key);
  const block = keys[0] ?? '';
  if (keys.length === 1) return true;
  if (TWO_LABELS.has(block)) return keys.length === 4;
  if (ONE_LABEL.has(block)) return keys.length === 3;
  return NO_LABEL.has(block) && keys.length === 2;
}
