import type { Evidence, MeasureKey, MigScope, ScopeId, UtilisationLadder } from '../domain/index.js';
import type { Measured } from './measured.js';
import { migEvidence, missingInstanceActivity, plus, type MigMeasures } from './mig.js';
import { hoursOf, stepOf, timeline, type Timeline } from './series.js';

/** Float noise from taking slices out of a GPU count is not a GPU held. */
const HELD = 1e-9;
const anyHeld = (line: Timeline | null): boolean => line !== null && [...line.values()].some((v) => v > HELD);

/** `pool:a` → `{ kind: 'pool', name: 'a' }`. */
function migScopeOf(scopeId: ScopeId): MigScope {
  const at = scopeId.indexOf(':');
  return { kind: scopeId.slice(0, at) as MigScope['kind'], name: scopeId.slice(at + 1) };
}

export interface MigRungs {
  allocated: number | null;
  busy: number | null;
  computing: number | null;
  computeField: UtilisationLadder['computeField'];
  tensor: number | null;
  dram: number | null;
  evidence: Evidence[];
}

/**
 * The whole GPUs a scope requested: kube-state-metrics' nvidia.com/gpu count, less what were
 * single-strategy slices (counted through the MIG measures instead). No series means none; a
 * failed query means unknown.
 */
function wholeRequests(m: Measured, id: MeasureKey, mig: MigMeasures, evidence: Evidence[]): { line: Timeline | null; step: number } {
  if (m.missingBecause(id) === 'nothing-there') return { line: plus(new Map(), mig.singleSlices, -1), step: 0 };
  const a = m.answer(id);
  if (a === undefined) return { line: null, step: 0 };
  evidence.push(a.evidence);
  const line = timeline(a);
  return { line: plus(line, mig.singleSlices, -1), step: stepOf(a, line) };
}

/**
 * Ladder rungs of a scope with MIG devices, in whole-GPU equivalents: whole GPUs as they are,
 * each instance as its share of a GPU. Busy is GPU_UTIL for whole GPUs and GR-engine activity
 * for instances (DCGM reports no GPU_UTIL per instance); activities are summed over series
 * rather than averaged and scaled, as GPUs and instances differ in size. A rung is null when
 * what is held on either side went unmeasured.
 */
export function migRungs(m: Measured, scopeId: ScopeId, requestsId: MeasureKey, mig: MigMeasures, withTensor: boolean): MigRungs {
  const evidence: Evidence[] = [];
  const scope = migScopeOf(scopeId);
  const whole = wholeRequests(m, requestsId, mig, evidence);
  evidence.push(...migEvidence(mig, m.window));
  const step = whole.step > 0 ? whole.step : mig.step;
  const allocatedLine = whole.line === null ? null : plus(whole.line, mig.requested);
  const wholeHeld = anyHeld(whole.line);
  const migHeld = anyHeld(mig.requested) || mig.instances;

  const lackInstances = () => m.lack(missingInstanceActivity(scope));
  const lackWhole = (field: 'gpu-util' | 'compute') => () => m.lack({ code: 'mig-whole-activity', scope, field });
  const rung = (wholeLine: Timeline | null, instLine: Timeline | null, onWhole: () => void, onInst: () => void): number | null => {
    const instMissing = migHeld && instLine === null;
    const wholeMissing = wholeHeld && wholeLine === null;
    if (instMissing) onInst();
    if (wholeMissing) onWhole();
    return instMissing || wholeMissing
      ? null
      : hoursOf(plus(wholeLine ?? new Map<number, number>(), instLine ?? new Map<number, number>()), step);
  };

  const busy = rung(mig.wholeBusy, mig.instanceBusy, lackWhole('gpu-util'), lackInstances);
  const wc = mig.wholeCompute;
  const ic = mig.instanceCompute;
  const computing = rung(wc.used ? wc.line : null, ic.used ? ic.line : null, lackWhole('compute'), lackInstances);
  const computeField: MigRungs['computeField'] =
    computing === null || (!wc.used && !ic.used)
      ? null
      : wc.fellBack || ic.fellBack
        ? 'DCGM_FI_PROF_GR_ENGINE_ACTIVE'
        : 'DCGM_FI_PROF_SM_ACTIVE';
  // Optional refinements: unmeasured, they are simply not shown.
  const quiet = () => undefined;
  // Pods get MIG devices only by requesting them: activity with no request means the requests
  // were not seen, not that the work used nothing.
  let allocated = allocatedLine === null ? null : hoursOf(allocatedLine, step);
  if (allocated !== null && allocated <= HELD && busy !== null && busy > HELD) {
    allocated = null;
    m.lack({ code: 'mig-allocation-unseen', scope });
  }
  return {
    allocated,
    busy,
    computing,
    computeField,
    tensor: withTensor ? rung(mig.wholeTensor, mig.instanceTensor, quiet, quiet) : null,
    dram: withTensor ? rung(mig.wholeDram, mig.instanceDram, quiet, quiet) : null,
    evidence,
  };
}
