import type { LocalQueueSeen, QueueLookup, SourceRef } from '../../domain/index.js';
import { sharedDepth } from './kustomize-namespaces.js';

/** Where a namespace-less object lands when `kubectl apply` is given none. */
const DEFAULT_NAMESPACE = 'default';

export interface FoundQueue {
  clusterQueue: { name: string; source: SourceRef } | null;
  lookup: QueueLookup;
}

const agree = (qs: readonly LocalQueueSeen[]): boolean => qs.length > 0 && qs.every((q) => q.clusterQueue === qs[0]?.clusterQueue);

/** A match, citing the copy nearest the workload; `all` are the LocalQueues of that name weighed. */
function found(code: QueueLookup['code'], qs: readonly LocalQueueSeen[], file: string, all: readonly LocalQueueSeen[] = qs): FoundQueue {
  const q = nearest(qs, file)[0];
  return { clusterQueue: q ? { name: q.clusterQueue, source: q.source } : null, lookup: { code, candidates: [...all] } };
}

/** The LocalQueues sitting nearest a file: the same file, else the most folders in common. */
function nearest(qs: readonly LocalQueueSeen[], file: string): LocalQueueSeen[] {
  const depth = (q: LocalQueueSeen) => sharedDepth(q.source.file, file);
  const best = Math.max(...qs.map(depth));
  return qs.filter((q) => depth(q) === best);
}

/**
 * The ClusterQueue a workload's queue-name label leads to, given the repository's LocalQueues of
 * that name. `namespaces` are where the workload runs: its own, or those kustomizations give it;
 * empty when nothing says (then it runs where it is applied: `default` without `-n`). A LocalQueue
 * with no namespace of its own lands wherever it is applied, and so matches any. Copies of one
 * LocalQueue (versioned folders, overlays) agree, and a choice is made only where the
 * repository's layout makes it; otherwise the candidates are returned for the team to pick.
 */
export function findClusterQueue(named: readonly LocalQueueSeen[], namespaces: readonly string[], file: string): FoundQueue {
  const ambiguous: FoundQueue = { clusterQueue: null, lookup: { code: 'ambiguous', candidates: [...named] } };
  if (named.length === 0) return { clusterQueue: null, lookup: { code: 'none', candidates: [] } };
  if (namespaces.length > 0) {
    const picks: LocalQueueSeen[] = [];
    let chosen = false;
    for (const ns of namespaces) {
      const here = named.filter((q) => q.namespace === ns);
      const pool = here.length > 0 ? here : named.filter((q) => q.namespace === null);
      if (pool.length === 0) return { clusterQueue: null, lookup: { code: 'other-namespaces', candidates: [...named] } };
      const near = agree(pool) ? pool : beside(pool, file);
      if (!agree(near)) return ambiguous;
      chosen ||= near.length < pool.length;
      picks.push(...near);
    }
    if (!agree(picks)) return ambiguous;
    return chosen ? found('nearest', picks, file, named) : found('namespace', picks, file, named);
  }
  if (agree(named)) return found('agree', named, file);
  const near = beside(named, file);
  if (agree(near)) return found('nearest', near, file, named);
  const inDefault = named.filter((q) => q.namespace === DEFAULT_NAMESPACE);
  if (agree(inDefault)) return found('default-namespace', inDefault, file, named);
  return ambiguous;
}

/** The nearest LocalQueues when they sit beside the workload (its file or its folder), else none. */
function beside(qs: readonly LocalQueueSeen[], file: string): LocalQueueSeen[] {
  const near = nearest(qs, file);
  return near.some((q) => q.source.file === file || sharedDepth(q.source.file, file) >= depthOf(file)) ? near : [];
}

function depthOf(file: string): number {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? 0 : file.slice(0, slash).split('/').length;
}
