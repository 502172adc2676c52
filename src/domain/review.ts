import type { CapacityChange } from './capacity.js';
import type { Diagnostic } from './diagnostic.js';
import type { Mode } from './policy.js';
import type { StaggerPlan } from './schedule.js';
import type { Evidence, Finding, MissingEvidence, Verdict } from './verdict.js';

/** The judgement of one capacity change. */
export interface ChangeReview {
  change: CapacityChange;
  verdict: Verdict;
  /** GPUs the linked workloads need, headroom included; null when unknown. */
  need: number | null;
  /** The fewest added GPUs (over the capacity before) that meet the need; null when unknown. */
  gpusNeeded: number | null;
  /** Names of the catalog workloads linked to the change by queue or pool. */
  workloads: string[];
  findings: Finding[];
  missingEvidence: MissingEvidence[];
  plan?: StaggerPlan;
  /** Why the verdict is what it is, one sentence. */
  reason: string;
  evidence: Evidence[];
}

/** Everything a review produced: data only, rendered by report/ and posted by github/. */
export interface ReviewResult {
  verdict: Verdict;
  gpusRequested: number;
  gpusNeeded: number | null;
  changes: CapacityChange[];
  reviews: ChangeReview[];
  findings: Finding[];
  missingEvidence: MissingEvidence[];
  diagnostics: Diagnostic[];
  context: {
    mode: Mode;
    headroom: number;
    catalogFile: string;
    /** The catalog was read from the head side and differs from the base side's. */
    catalogChangedInPr: boolean;
    /** The PR edits the policy file; it was judged by the base version. */
    policyChangedInPr: boolean;
    headSha?: string;
    /** Where the measurements came from, when the review had telemetry. */
    telemetry?: { source: string; at: string; windowMinutes: number };
    baseLabel: string;
    headLabel: string;
  };
}
