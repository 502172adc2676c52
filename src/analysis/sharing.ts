import type { CapacityChange, CapacityDecl, ChangeReview, ChangeSharing, Evidence, Finding } from '../domain/index.js';

type Shared = Extract<ChangeSharing, { state: 'shared' }>;

function schedulableDecl(decl: CapacityDecl | undefined, schedulable: number, factor: number | null): CapacityDecl | undefined {
  if (!decl) return undefined;
  const { sharing: _sharing, sharingLink: _link, gpuStep, ...rest } = decl;
  return {
    ...rest,
    gpus: schedulable,
    ...(gpuStep === undefined ? {} : { gpuStep: gpuStep * (factor ?? 1) }),
  };
}

/**
 * The change as the workloads see it: in shared GPUs, which is what their requests and the need
 * are counted in. One more node adds its GPUs times the factor.
 */
export function inSchedulableGpus(change: CapacityChange, s: Shared): CapacityChange {
  const before = schedulableDecl(change.before, s.schedulableBefore, s.factorBefore);
  const after = schedulableDecl(change.after, s.schedulableAfter, s.factorAfter);
  return {
    ...change,
    gpusBefore: s.schedulableBefore,
    gpusAfter: s.schedulableAfter,
    delta: s.schedulableAfter - s.schedulableBefore,
    ...(before ? { before } : {}),
    ...(after ? { after } : {}),
  };
}

/** Shared GPUs → the physical GPUs that provide them: a part of a GPU needs the whole GPU. */
const physicalCeil = (n: number, factor: number) => (n <= 0 ? 0 : Math.ceil(n / factor - 1e-9));

/**
 * A review made in shared GPUs, told in physical ones: the need and the GPUs to add are divided by
 * the factor (rounded up: a slice needs its GPU), what a lever frees rounded down (freeing three of
 * four slices frees no GPU), and the verdict follows from the physical numbers.
 */
export function inPhysicalGpus(inner: ChangeReview, change: CapacityChange, s: Shared): ChangeReview {
  const factor = s.factorAfter ?? s.factorBefore ?? 1;
  const delta = change.delta;
  // Only the factor changed: the shared GPUs the review weighed cost no hardware.
  const factorOnly = delta === 0 && s.factorBefore !== s.factorAfter;
  const counted = inner.gpusNeeded === null ? null : delta <= 0 ? 0 : Math.min(delta, physicalCeil(inner.gpusNeeded, factor));
  const gpusNeeded = factorOnly ? 0 : counted;
  const findings = inner.findings.map((f): Finding => ({
    ...f,
    gpusFreed: Math.min(Math.max(0, delta), Math.floor(f.gpusFreed / factor + 1e-9)),
  }));
  let verdict = inner.verdict;
  if (gpusNeeded !== null && delta > 0 && verdict !== 'insufficient-evidence') {
    verdict = gpusNeeded === 0 ? 'not-justified' : gpusNeeded >= delta ? 'justified' : 'partially-justified';
  }
  if (factorOnly) verdict = 'justified';
  const sharingEvidence: Evidence = { source: 'infra', ref: `${s.source.file}:${s.source.line}` };
  return {
    ...inner,
    change,
    verdict,
    need: inner.need === null ? null : physicalCeil(inner.need, factor),
    gpusNeeded,
    findings,
    // Nothing is bought: no lever to pull, no evidence to ask for.
    ...(factorOnly
      ? {
          findings: [],
          missingEvidence: [],
          reason: { code: 'sharing-factor-change', factorBefore: s.factorBefore ?? 1, factorAfter: s.factorAfter ?? 1 } as const,
        }
      : {}),
    evidence: [...inner.evidence, sharingEvidence],
    ...(inner.needWithoutLevers === undefined
      ? {}
      : { needWithoutLevers: inner.needWithoutLevers === null ? null : physicalCeil(inner.needWithoutLevers, factor) }),
    // A factor change is judged by what it costs, not by a need in shared GPUs.
    sharing: factorOnly ? s : { ...s, schedulableNeed: inner.need, schedulableGpusNeeded: inner.gpusNeeded },
  };
}
