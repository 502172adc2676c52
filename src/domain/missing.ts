import type { NotFollowed } from './coverage.js';
import type { ExpandProblemCode } from './stagger-problem.js';

/** A ClusterQueue or a node pool, as a missing item names it. */
export interface Target {
  kind: 'queue' | 'pool';
  name: string;
}

/**
 * A catalog entry that names a near miss of the change's queue or pool: a near name in the right
 * field (`field` is the change's), or the change's name in the other field.
 */
export interface LinkHint {
  at: string;
  workload: string;
  field: 'queue' | 'pool';
  value: string;
}

/**
 * Evidence the review lacks that analysis found it lacks, as data: report/ words what it is and
 * how to add it for each surface. (Telemetry's own queries state theirs in words, `what`/`how`.)
 */
export type MissingItem =
  | { code: 'catalog-unreadable'; catalogFile: string; at: string; message: string }
  | { code: 'no-catalog'; catalogFile: string; target: Target }
  | { code: 'catalog-entry-invalid'; workload: string | null; at: string; message: string; target: Target }
  | { code: 'no-linked-workloads'; catalogFile: string; target: Target; hints: LinkHint[]; emptyCatalog: boolean }
  /** `problem` is why the planner could not place the entry. */
  | { code: 'schedulable-window'; workload: string; problem: ExpandProblemCode }
  | { code: 'service-capacity-unmeasured'; services: string[] }
  | { code: 'sharing-factor-unknown'; target: Target; sharingCode: string; source: { name: string; at: string } }
  | { code: 'deadline'; workload: string; catalogFile: string }
  | { code: 'selector-for-runtime'; workload: string }
  | { code: 'selector-for-request-rate'; workload: string }
  | { code: 'slo'; owner: Owner }
  | { code: 'load-test'; owner: Owner }
  /** `problem` is the load-test reader's message, or null when the file was not read at all. */
  | { code: 'load-test-unread'; path: string; problem: string | null }
  | {
      code: 'load-test-step';
      owner: Owner;
      path: string;
      slo: { p95LatencyMs: number; ttftP95Ms?: number; errorRate?: number };
      /** The step at the lowest positive rate, or null when none has one. */
      slowest: { rate: number; label: string; p95E2eMs: number | null; ttftP95Ms: number | null; errorRate: number | null } | null;
    }
  | { code: 'opencost-unanswered'; message: string }
  | { code: 'opencost-no-cost'; namespace: string; target: string }
  | { code: 'gpu-price'; gpuModel: string | null; target: string }
  | { code: 'quality-threshold'; workload: string }
  | { code: 'alternative-quality'; workload: string; alternative: string }
  | { code: 'verified-outcomes'; workload: string }
  /**
   * A catalog entry the PR adds or raises whose demand nothing measured: it does not count until
   * telemetry or a load test on the base branch shows it, or an authorised reviewer overrides.
   */
  | { code: 'declared-demand'; workload: string; change: 'added' | 'raised'; type: 'job' | 'service'; gpus: number; catalogFile: string }
  /** A changed file's capacity the review could not follow. */
  | { code: 'not-followed'; item: NotFollowed }
  /** A capacity file that could not be read (`at` is `file` or `file:line`). */
  | { code: 'file-unreadable'; file: string; at: string; message: string }
  /** Pods of a pool request GPUs but no DCGM series names a pod; `dcgmOnNodes` tells whether any series is on its nodes. */
  | { code: 'idle-pods-unnamed'; pool: string; dcgmOnNodes: boolean }
  /** Pods of a pool request MIG devices but no MIG instance series names a pod. */
  | { code: 'idle-mig-pods-unnamed'; pool: string }
  /** MIG devices are held in the scope but no instance series carries GR-engine activity. */
  | { code: 'mig-instance-activity'; scope: MigScope }
  /** Whole GPUs are held in a MIG scope but no whole-GPU series carries `field`'s activity. */
  | { code: 'mig-whole-activity'; scope: MigScope; field: 'gpu-util' | 'compute' }
  /** DCGM shows the scope's GPUs or instances in use, but no pod requesting them was seen. */
  | { code: 'mig-allocation-unseen'; scope: MigScope };

/** The scope of a MIG measure (`pool:<name>` and the like), as the MIG items name it. */
export interface MigScope {
  kind: 'pool' | 'workload' | 'queue';
  name: string;
}

/** A service, or an alternative of one, whose catalog entry lacks something. */
export interface Owner {
  workload: string;
  alternative?: string;
}
