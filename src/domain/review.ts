import type { CapacityChange, CapacityDecl } from './capacity.js';
import type { ChangeSharing } from './sharing.js';
import type { FileCoverage } from './coverage.js';
import type { Diagnostic } from './diagnostic.js';
import type { DeadlineLadder, DemandProfile, InferredWorkload } from './inferred.js';
import type { Mode, Policy } from './policy.js';
import type { StaggerPlan } from './schedule.js';
import type { Evidence, Finding, Lever, MissingEvidence, Verdict } from './verdict.js';
import type { VerdictReason } from './reason.js';
import type { CostNote, ServingSize } from './finding-detail.js';
import type { ModelSwap } from './model-swap.js';

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
  /** Why the verdict is what it is, as data; report/ words it (the JSON's `reason`). */
  reason: VerdictReason;
  evidence: Evidence[];
  /**
   * How complete the evidence behind the verdict is: `high` when telemetry answered everything the
   * change's levers asked, `medium` when some of it is missing (listed in `missingEvidence`),
   * `low` when the review ran from the files alone, without telemetry; `inferred` when no catalog
   * documents the workloads and the verdict rests on what telemetry observed, or when a catalog
   * entry's `unknown` runtime or earliest start was taken from its manifest or observed runs.
   */
  confidence?: 'high' | 'medium' | 'low' | 'inferred';
  /** The need with no lever applied: every run starting as its window opens, services as declared. */
  needWithoutLevers?: number | null;
  /**
   * The fewest levers that, applied together, leave as few GPUs to add as all of them do: the
   * combination the verdict rests on. `meetsNeed` tells whether together they meet the need with
   * the capacity before (and any quota borrowed). A finding's own `meetsNeed` is for its lever
   * alone. Absent when no lever lowers what is added.
   */
  combination?: { levers: Lever[]; meetsNeed: boolean };
  /** Allocated → busy → computing → productive, for the changed pool or queue and each linked workload. */
  ladders?: UtilisationLadder[] | undefined;
  /** Replicas each linked service needs at its observed peak, from its load test. */
  serving?: ServingCapacity[];
  /** Cost per verified outcome of each linked workload with outcomes, and of each alternative. */
  costs?: OutcomeCost[];
  /** Documented runtimes against observed ones, for linked jobs with telemetry. */
  runtimes?: RuntimeCheck[];
  /** Pods in no catalog entry that held GPUs of the changed pool idle over the window; absent when none. */
  idlePods?: IdlePod[];
  /** The change's workloads, each field with its origin: the catalog, a manifest, or telemetry. */
  inferred?: InferredWorkload[];
  /** Observed GPU demand on the changed pool or queue; absent without telemetry or a catalog-free review. */
  demand?: DemandProfile;
  /** What each deadline would need, for batch jobs nothing gives a deadline. */
  deadlines?: DeadlineLadder;
  /**
   * GPU sharing on the changed pool (docs/json.md). For a shared pool `need` and `gpusNeeded` are
   * physical GPUs and these say what they are in the shared GPUs the workloads request.
   */
  sharing?: ReviewSharing;
  /**
   * The change of GPU model, when base and head name different ones (docs/json.md). When it
   * `asks`, the head's GPUs were judged as new demand on that model: `need` and `gpusNeeded`
   * count from 0, not from the base's GPUs of the other model.
   */
  modelSwap?: ModelSwap;
}

export type ReviewSharing = ChangeSharing & { schedulableNeed?: number | null; schedulableGpusNeeded?: number | null };

/** A pod the catalog does not document, holding GPUs of the changed pool while idle. */
export interface IdlePod {
  namespace: string;
  pod: string;
  /** GPUs it held at the end of the window: what reclaiming it frees. */
  gpus: number;
  /** Busy GPU-hours ÷ held GPU-hours over the window (DCGM_FI_DEV_GPU_UTIL). */
  busyFraction: number;
  /** Share of the window it held GPUs. */
  heldFraction: number;
  /**
   * MIG instances it held at the end of the window, by profile; `gpus` is then their whole-GPU
   * equivalent (a 1g.10gb of a 7-slice GPU is 1/7) and `busyFraction` comes from
   * DCGM_FI_PROF_GR_ENGINE_ACTIVE. Absent for whole GPUs.
   */
  slices?: { profile: string; count: number }[];
  evidence: Evidence[];
}

/**
 * Something the ladder shows that a reader should act on, with the numbers report/ words it by.
 * `idle`: busy under the policy's `idleBelow`; `memory-bound`: busy, but waiting on memory.
 */
export type LadderFlag =
  | { kind: 'idle'; name: string; busyFraction: number; allocatedGpuHours: number; idleBelow: number }
  | { kind: 'memory-bound'; name: string; busyFraction: number; memoryFraction: number; smFraction: number };

/** GPU time over the window, rung by rung; a rung is null when its measurement is missing. */
export interface UtilisationLadder {
  scope: 'pool' | 'queue' | 'workload';
  name: string;
  /** GPU-hours allocated: requested by pods (pool, workload) or admitted by Kueue (queue). */
  allocatedGpuHours: number | null;
  /**
   * GPU-hours busy (DCGM_FI_DEV_GPU_UTIL × allocated GPUs). Where MIG instances are held, every
   * rung is in whole-GPU equivalents and instances are busy by DCGM_FI_PROF_GR_ENGINE_ACTIVE.
   */
  busyGpuHours: number | null;
  /** GPU-hours computing: SM activity, or graphics-engine activity where SM is not exported. */
  computingGpuHours: number | null;
  /** Which DCGM field gave `computingGpuHours`. */
  computeField: 'DCGM_FI_PROF_SM_ACTIVE' | 'DCGM_FI_PROF_GR_ENGINE_ACTIVE' | null;
  /** GPU-hours of tensor-pipe activity. */
  tensorGpuHours: number | null;
  /** busy ÷ allocated. */
  busyFraction: number | null;
  verifiedOutcomes: number | null;
  /** Verified outcomes per allocated GPU-hour: the productive rung. */
  outcomesPerGpuHour: number | null;
  flags: LadderFlag[];
  evidence: Evidence[];
}

/** One service's size from its load test and its observed peak. */
export interface ServingCapacity extends ServingSize {
  gpusPerReplica: number;
  evidence: Evidence[];
}

/** Cost per verified outcome of one way to run a workload. */
export interface OutcomeCost {
  workload: string;
  /** `current`, or the alternative's name. */
  option: string;
  gpuType: string | null;
  /** GPUs it holds (current: measured or declared; alternative: replicas needed at the observed peak). */
  gpus: number | null;
  /** GPU cost over the window, USD, idle time and retries included. */
  usdOverWindow: number | null;
  verifiedOutcomes: number | null;
  usdPerVerifiedOutcome: number | null;
  /** The alternative meets the quality threshold and the SLO at the observed peak. */
  qualifies: boolean;
  /** Why it does not qualify, or what its numbers rest on; report/ words it (the JSON's `note`). */
  note: CostNote;
  evidence: Evidence[];
}

/** A job's documented runtime against the one telemetry shows. */
export interface RuntimeCheck {
  workload: string;
  documentedMinutes: number;
  /** Mean minutes per run: GPU-hours its Running pods held ÷ (its runs in the window × gpusPerJob). */
  observedMinutes: number;
  /**
   * Mean minutes per run its pods waited Pending (for a node, or admission), from the GPUs they
   * asked for meanwhile: queueing, which is evidence of a short pool, never runtime. Null when not
   * measured; absent from reviews recorded before it was.
   */
  pendingMinutes?: number | null;
  /** |observed − documented| ÷ documented above 25%. */
  differs: boolean;
  evidence: Evidence[];
}

/** A catalog entry the PR makes ask for more; enforce mode judges with the base branch's entry. */
export interface RaisedDemand {
  workload: string;
  /** What grew, as `field: before → after` (`jobsPerDay: 4 → 8`). */
  fields: string[];
}

/**
 * What measured the demand of an entry the PR declares, so that it counts as the PR writes it:
 * telemetry of its runs (a job: the GPUs its pods requested at their peak and per day, at least
 * what the entry declares), or its observed request rate against a load test the base branch holds
 * (a service: then sized from them, not from its declared replicas).
 */
export type DemandSupport =
  | { by: 'telemetry'; peakGpus: number; gpuHoursPerDay: number; evidence: Evidence[] }
  | { by: 'load-test'; gpusNeeded: number; evidence: Evidence[] };

/** Demand the PR declares in the catalog: an entry it adds, or one whose demand it raises. */
export interface DeclaredDemand {
  workload: string;
  change: 'added' | 'raised';
  /** GPUs the entry asks for at once as the PR writes it: `gpusPerJob`, or replicas × `gpusPerReplica`. */
  gpus: number;
  /** For a job: GPU-hours a day as the PR writes it (runs × GPUs × runtime); null for a service. */
  gpuHoursPerDay: number | null;
  /** What measured it; null when nothing did, and then it does not count (see CatalogDemand). */
  support: DemandSupport | null;
  /**
   * Another entry whose selector may pick the same pods: their measured use is that entry's, so it
   * supports nothing here.
   */
  sharesSelectorWith?: string;
}

/**
 * How the head's catalog was weighed. A pull request cannot write the demand that justifies it:
 * an entry it raises is judged as the base branch has it, and an entry it adds is left out, unless
 * measured support (DemandSupport) shows the demand it declares; then it counts as written. An
 * authorised reviewer's override stands in for the measurement.
 */
export interface CatalogDemand {
  raised: RaisedDemand[];
  /** Names of entries only the head's catalog has. */
  declaredInPr: string[];
  /** The PR's GPUs needed had every entry it declares been taken as written; null when unknown. */
  gpusNeededWithHeadEntries: number | null;
  /** Every entry the PR declares (added or raised), with what measured it. */
  declared: DeclaredDemand[];
  /** The PR's verdict had every entry it declares been taken as written. */
  verdictWithHeadEntries: Verdict;
}

/** Everything a review produced: data only, rendered by report/ and posted by github/. */
/** A Kueue queue in a cohort at head, and the same queue at base when the base declares it. */
export interface CohortMember {
  head: CapacityDecl;
  base?: CapacityDecl;
}

export interface ReviewResult {
  verdict: Verdict;
  gpusRequested: number;
  gpusNeeded: number | null;
  changes: CapacityChange[];
  reviews: ChangeReview[];
  findings: Finding[];
  missingEvidence: MissingEvidence[];
  diagnostics: Diagnostic[];
  /** Present when the PR adds catalog entries or raises the demand of some (see CatalogDemand). */
  catalogDemand?: CatalogDemand;
  /** Each changed file: read, ruled out, or not followed; a file not followed rules out a confident verdict. */
  coverage?: FileCoverage[];
  /**
   * Kueue queues the changed files declare in a cohort at head, whether or not their own count
   * changed, each with its base declaration when the base has the queue: what another member of a
   * cohort lends, borrows or joins with changes what a changed queue may take, so a grant binds to
   * what the pull request loosens of these too.
   */
  cohortMembers?: CohortMember[];
  context: {
    mode: Mode;
    headroom: number;
    catalogFile: string;
    /** The catalog was read from the head side and differs from the base side's. */
    catalogChangedInPr: boolean;
    /** The PR edits the policy file; it was judged by the base version. */
    policyChangedInPr: boolean;
    /**
     * The policy's errors (a bad `mode`, a bad value, an unknown key): the review then runs in
     * enforce mode and a PR that may grow capacity fails, so a typo never loosens the gate.
     */
    policyErrors?: Diagnostic[];
    /**
     * Policy files the policy names that could not be read whole (not visible to the App, refused,
     * invalid YAML, a loop): their errors are among `policyErrors`, and no override is accepted.
     */
    policyUnread?: string[];
    /** Who the policy lets override a failing check, so the report can say so where it is read. */
    overrides?: Policy['overrides'];
    headSha?: string;
    /** Where the measurements came from, when the review had telemetry. */
    telemetry?: { source: string; at: string; windowMinutes: number; outage?: TelemetryOutage };
    baseLabel: string;
    headLabel: string;
    /** The branch the pull request merges into, where the policy is read, when the caller knows it. */
    baseBranch?: string;
  };
}

/**
 * A telemetry source that answered none of the review's queries, for the same kind of reason: the
 * review then measured nothing, whatever window it names, and says so first.
 * - `unavailable`: it could not be reached (connection refused, DNS, TLS, timeout, 5xx);
 * - `bad-response`: what answered is not a Prometheus HTTP API;
 * - `config`: its settings are wrong (a bad URL, credentials or headers).
 */
export interface TelemetryOutage {
  reason: 'unavailable' | 'bad-response' | 'config';
  /** How many queries were asked, none answered. */
  queries: number;
  /** The first failure as the source described it (redacted). */
  detail: string;
}
