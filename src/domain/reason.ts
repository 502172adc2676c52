import type { BoundProof } from './bound-proof.js';
import type { Lever } from './verdict.js';

/**
 * What the need of a change is made of, so a reason can say it part by part. `staggeredPeak` is
 * null when no job runs there (services alone have no runs to stagger).
 */
export interface NeedParts {
  gpus: number;
  staggeredPeak: number | null;
  /** GPUs of services counted as the catalog declares them, with the policy's headroom. */
  declaredServices: number;
  /** Services counted as declared with their own headroom (the catalog's `headroom`, 0 included), when it differs from the policy's. */
  ownHeadroom?: { gpus: number; headroom: number }[];
  /** GPUs of services sized at their observed peak (headroom already in). */
  sizedServices: number;
  headroom: number;
}

/** Why a change's verdict is what it is, as data: report/ words it for each surface. */
export type VerdictReason =
  /** A `gpu-sharing` change: schedulable GPUs per physical GPU moved; no hardware. */
  | { code: 'sharing-factor-change'; factorBefore: number; factorAfter: number }
  /** The catalog exists but cannot be read. */
  | { code: 'catalog-unreadable'; catalogFile: string; at: string }
  /** No catalog (or none readable), and nothing observed tells the need. */
  | { code: 'no-catalog' }
  /** Every catalog entry linked to the change was dropped for its errors. */
  | { code: 'catalog-entries-invalid' }
  /** The catalog links no workload to the change. */
  | { code: 'no-linked-workloads'; catalogFile: string }
  /** The change removes GPUs; `fits` tells whether the need still fits what is left. */
  | { code: 'lowers-capacity'; gpusAfter: number; need: NeedParts; fits: boolean }
  /** Some linked workloads could not be planned, and what could be planned asks less than the change. */
  | { code: 'workloads-unplanned'; workloads: (string | { entryAt: string })[] }
  /** The capacity before (plus any borrowed) meets the need, with the levers named. */
  | { code: 'capacity-meets-need'; gpusBefore: number; borrowed: number; need: NeedParts; levers: Lever[] }
  /** Fewer GPUs than asked meet the need (`inSteps` is `gpusNeeded` rounded up to the pool's step). */
  | {
      code: 'need-below-request';
      need: NeedParts;
      gpusNeeded: number;
      inSteps: number;
      step: number | null;
      delta: number;
      borrowed: number;
    }
  /** Fewer GPUs would do, but the pool's step makes the request the least that covers it. */
  | { code: 'need-rounds-to-request'; need: NeedParts; gpusNeeded: number; step: number | null; delta: number }
  /** All asked is needed, and the plan is proven optimal (`bound` in the plan's words). */
  | { code: 'need-proven'; need: NeedParts; bound: BoundProof }
  /** All asked is needed by the best schedule found; the bound is proven. */
  | { code: 'need-best-found'; need: NeedParts; lowerBound: number; bound: BoundProof }
  /** The pool's GPUs may be shared ones and the factor cannot be told. */
  | { code: 'sharing-unknown'; sharingCode: string }
  /** Without a catalog: the change removes GPUs; the observed peak needs `observedNeed`. */
  | { code: 'observed-lowers-capacity'; gpusAfter: number; observedNeed: number }
  /** Without a catalog: the GPUs there (with the levers) hold the observed peak and the request. */
  | {
      code: 'observed-peak-fits';
      gpusBefore: number;
      borrowed: number;
      peak: number;
      reclaimed: number;
      need: number;
      delta: number;
      levers: Lever[];
    }
  /** Without a catalog: the observed peak and the request do not fit; what is added is unknown. */
  | { code: 'observed-peak-exceeds'; gpusBefore: number; borrowable: number; peak: number; need: number; delta: number };
