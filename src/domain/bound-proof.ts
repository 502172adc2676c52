/**
 * A stretch of the plan's cycle in minutes after its start (`to` may run past the cycle's end),
 * or the whole cycle.
 */
export type CycleSpan = { whole: true; cycle: number } | { whole: false; cycle: number; from: number; to: number };

/** What a packing weight of run sizes expresses (the energetic test's refinement). */
export type PackingRule =
  /** Runs of more than `over` GPUs leave no room for runs of `atLeast` or more. */
  | { code: 'no-room'; over: number; atLeast: number }
  /** At most `count` runs of more than `over` GPUs fit side by side. */
  | { code: 'side-by-side'; count: number; over: number };

/**
 * Why no schedule meeting every deadline has a lower peak than `value`, as data: report/ words it
 * (the JSON's `boundReason`).
 */
export type BoundProof =
  | { code: 'no-runs'; value: number }
  | { code: 'largest-job'; value: number; workload: string; gpus: number }
  /** The runs' work in a span, over its length. */
  | { code: 'work'; value: number; span: CycleSpan; gpuMinutes: number }
  /** Wherever `workload` runs, runs that cannot leave that time already hold `beside` GPUs. */
  | { code: 'beside-compulsory'; value: number; workload: string; gpus: number; beside: number }
  /** `inner`, rounded up to a multiple of `unit`, the GPUs every job uses a multiple of. */
  | { code: 'multiple-of'; value: number; unit: number; inner: BoundProof }
  /** Runs of `smallest` GPUs or more cannot share `2 × smallest − 1`, and in `span` need more minutes one after another than it has. */
  | { code: 'take-turns'; value: number; smallest: number; span: CycleSpan; minutes: number; spanMinutes: number }
  /** With at most `limit` GPUs the runs' work in `span` does not fit (under `packing`, when one applies). */
  | { code: 'energy'; value: number; span: CycleSpan; limit: number; needMinutes: number; roomMinutes: number; packing: PackingRule | null }
  /** An exhaustive search on the `step`-minute grid found no schedule within `value − 1` GPUs. */
  | { code: 'search'; value: number; step: number; before: BoundProof }
  /** The linear-programming bound: slot weights, most of them in `span`, add up to `total` GPUs. */
  | { code: 'dual'; value: number; step: number; cycle: number; span: CycleSpan; total: number };
