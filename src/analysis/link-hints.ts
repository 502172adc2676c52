import { servedBy, type CapacityChange, type LinkHint, type Workload } from '../domain/index.js';
import { nearest } from '../util/nearest.js';

/** `GPU_Pool` and `gpu-pool` are one name to a reader; Terraform labels use `_`, cloud names `-`. */
function normal(name: string): string {
  return name.toLowerCase().replace(/_/g, '-');
}

/**
 * True when two names differ only by case, `_`/`-`, a whole `-` word before or after (what a
 * Kustomize namePrefix/nameSuffix or a Terraform `"${var.cluster}-gpu-pool"` name adds), or a typo
 * (`reserch` for `research`).
 */
function resembles(a: string, b: string): boolean {
  const x = normal(a);
  const y = normal(b);
  if (x === y || nearest(x, [y]) !== null) return true;
  const [long, short] = x.length >= y.length ? [x, y] : [y, x];
  return short.length > 0 && (long.endsWith(`-${short}`) || long.startsWith(`${short}-`));
}

function at(w: Workload): string {
  return w.source.line === null ? w.source.file : `${w.source.file}:${w.source.line}`;
}

/**
 * When no catalog entry links to a change, the entries that were probably meant to: a near name
 * in the right field, or the exact name in the other field (`pool:` for a ClusterQueue). Empty
 * when nothing comes close.
 */
export function linkHints(change: CapacityChange, workloads: readonly Workload[]): LinkHint[] {
  const field = servedBy(change).kind;
  const other = field === 'queue' ? 'pool' : 'queue';
  const hints: LinkHint[] = [];
  for (const w of workloads) {
    const own = w[field];
    const wrong = w[other];
    if (own !== undefined && own !== change.name && resembles(own, change.name)) {
      hints.push({ at: at(w), workload: w.name, field, value: own });
    } else if (own === undefined && wrong !== undefined && resembles(wrong, change.name)) {
      hints.push({ at: at(w), workload: w.name, field: other, value: wrong });
    }
  }
  return hints;
}
