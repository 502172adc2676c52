import { nearest, type CapacityChange, type Workload } from '../domain/index.js';

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
 * in the right field, or the exact name in the other field (`pool:` for a ClusterQueue). Says
 * what each names and what to write instead; empty when nothing comes close.
 */
export function linkHint(change: CapacityChange, workloads: readonly Workload[]): string {
  const field = change.kind === 'kueue-cluster-queue' ? 'queue' : 'pool';
  const other = field === 'queue' ? 'pool' : 'queue';
  const hints: string[] = [];
  for (const w of workloads) {
    const own = w[field];
    const wrong = w[other];
    if (own !== undefined && own !== change.name && resembles(own, change.name)) {
      hints.push(`${at(w)} (${w.name}) has \`${field}: ${own}\``);
    } else if (own === undefined && wrong !== undefined && resembles(wrong, change.name)) {
      hints.push(`${at(w)} (${w.name}) has \`${other}: ${wrong}\`, but a ${describe(change)} links by \`${field}:\``);
    }
  }
  if (hints.length === 0) return '';
  const shown = hints.slice(0, 3).join('; ');
  const more = hints.length > 3 ? `; and ${hints.length - 3} more` : '';
  return `. Close but not linked: ${shown}${more}. A workload links only by the exact name this change declares, \`${field}: ${change.name}\` (after any Kustomize namePrefix/nameSuffix or Terraform interpolation, not the Terraform resource label)`;
}

function describe(change: CapacityChange): string {
  return change.kind === 'kueue-cluster-queue' ? 'ClusterQueue' : 'node pool';
}
