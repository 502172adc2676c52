import type { Evidence, UtilisationLadder, Workload } from '../domain/index.js';
import { evidenceOf } from '../telemetry/gather.js';
import type { Measured } from './measured.js';
import { maxOf, timeline } from './series.js';

/** A linked workload whose allocation sat idle over the window, and the GPUs it holds when it runs. */
export interface IdleHolder {
  workload: Workload;
  ladder: UtilisationLadder;
  /** Most GPUs its pods requested at once. */
  heldGpus: number;
  evidence: Evidence[];
}

/**
 * The linked workloads flagged idle by their ladder (busy under the policy's `idleBelow`).
 * Only linked workloads are counted: their GPUs are the ones the need is made of, so
 * reclaiming them lowers that need; idle GPUs of undocumented pods are not measured per pod.
 */
export function idleHolders(linked: readonly Workload[], ladders: readonly UtilisationLadder[], m: Measured): IdleHolder[] {
  const out: IdleHolder[] = [];
  for (const w of linked) {
    const ladder = ladders.find((l) => l.scope === 'workload' && l.name === w.name);
    if (ladder === undefined || !ladder.flags.some((f) => f.kind === 'idle')) continue;
    const a = m.peek(`ksm.gpu-requests:workload:${w.name}`);
    const held = a === undefined ? null : maxOf(timeline(a));
    if (a === undefined || held === null || held <= 0) continue;
    out.push({ workload: w, ladder, heldGpus: Math.round(held), evidence: [...ladder.evidence, evidenceOf(a)] });
  }
  return out;
}
