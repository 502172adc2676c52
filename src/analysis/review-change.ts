import type {
  CapacityChange,
  ChangeReview,
  Evidence,
  Finding,
  InferenceWorkload,
  JobWorkload,
  MissingEvidence,
  Policy,
  StaggerPlan,
  Workload,
} from '../domain/index.js';
import { isJobWorkload } from '../domain/index.js';
import type { ReviewTelemetry } from '../telemetry/collect.js';
import { withHeadroom } from './need.js';
import { jobsFromWorkloads } from './stagger/expand.js';
import { planStagger } from './stagger/plan.js';

export interface ChangeContext {
  change: CapacityChange;
  /** Every catalog workload; null when the catalog is missing or unreadable. */
  workloads: Workload[] | null;
  catalogFile: string;
  policy: Policy;
  /** What the cluster does now; null when the review runs from the files alone. */
  telemetry?: ReviewTelemetry | null;
}

/** The workloads a change serves: same queue for a ClusterQueue, same pool for a node pool. */
export function linkedWorkloads(change: CapacityChange, workloads: Workload[]): Workload[] {
  return change.kind === 'kueue-cluster-queue'
    ? workloads.filter((w) => w.queue === change.name)
    : workloads.filter((w) => w.pool === change.name);
}

function ref(file: string, line: number | null): string {
  return line === null ? file : `${file}:${line}`;
}

/** Judges one capacity change against the need of the workloads it serves. Pure. */
export function reviewChange(ctx: ChangeContext): ChangeReview {
  const { change, policy } = ctx;
  const infra: Evidence = { source: 'infra', ref: ref(change.file, change.line) };
  if (change.kind === 'gpu-sharing') return sharingReview(change, infra);
  if (ctx.workloads === null) {
    return unknownNeed(
      change,
      infra,
      {
        what: `a workload catalog (${ctx.catalogFile})`,
        how: `add ${ctx.catalogFile} at the repository root listing the jobs that run in ${describeTarget(change)} (see the catalog format in the README)`,
      },
      `no readable workload catalog, so the need of ${describeTarget(change)} is unknown`,
    );
  }

  const linked = linkedWorkloads(change, ctx.workloads);
  if (linked.length === 0) {
    return unknownNeed(
      change,
      infra,
      {
        what: `workloads that run in ${describeTarget(change)}`,
        how: `document them in ${ctx.catalogFile} with \`${change.kind === 'kueue-cluster-queue' ? 'queue' : 'pool'}: ${change.name}\``,
      },
      `${ctx.catalogFile} documents no workload that runs in ${describeTarget(change)}`,
    );
  }

  const jobs = linked.filter(isJobWorkload);
  const services = linked.filter((w): w is InferenceWorkload => w.type === 'inference');
  const expanded = jobsFromWorkloads(jobs);
  const plan = planStagger(expanded.jobs);
  // Services are sized as declared until telemetry and load tests can size them: they hold
  // their GPUs all day, on top of whatever the jobs need at their peak.
  const serviceGpus = services.reduce((sum, s) => sum + s.gpusPerReplica * s.replicas, 0);
  const headroom = policy.headroom;
  const need = withHeadroom(plan.peakGpus + serviceGpus, headroom);
  const naiveNeed = withHeadroom(plan.naivePeakGpus + serviceGpus, headroom);
  const before = change.gpusBefore;
  const after = change.gpusAfter;

  const evidence: Evidence[] = [
    infra,
    ...linked.map((w): Evidence => ({ source: 'catalog', ref: ref(w.source.file, w.source.line) })),
    { source: 'planner', ref: plan.boundReason },
  ];
  const missingEvidence: MissingEvidence[] = expanded.problems.map((p) => ({
    what: `a schedulable window for ${p.workload}`,
    how: p.message,
  }));
  if (services.length > 0) {
    missingEvidence.push({
      what: `measured capacity of ${services.map((s) => s.name).join(', ')}`,
      how: 'the service is counted at its declared replicas; a load test (`loadTest:`) and Prometheus telemetry would show whether fewer replicas meet its SLO',
    });
  }

  const needText = describeNeed(plan, serviceGpus, headroom, need);
  const common = { change, workloads: linked.map((w) => w.name), need, plan, evidence, missingEvidence };

  if (change.delta <= 0) {
    return {
      ...common,
      verdict: 'justified',
      gpusNeeded: 0,
      findings: [],
      reason:
        after >= need
          ? `lowers capacity to ${after} GPUs; the need (${needText}) still fits`
          : `lowers capacity to ${after} GPUs, below the need (${needText})`,
    };
  }

  const stagger = staggerFinding(jobs, plan, before, need, naiveNeed, change.delta);
  const findings = stagger ? [stagger] : [];

  if (need <= before) {
    return {
      ...common,
      verdict: 'not-justified',
      gpusNeeded: 0,
      findings,
      reason: `the ${before} GPUs already there meet the need (${needText})`,
    };
  }
  if (need < after) {
    return {
      ...common,
      verdict: 'partially-justified',
      gpusNeeded: need - before,
      findings,
      reason: `the need (${needText}) calls for ${need - before} more GPUs, not ${change.delta}`,
    };
  }
  return {
    ...common,
    verdict: 'justified',
    gpusNeeded: change.delta,
    findings,
    reason: plan.optimal
      ? `no schedule meets every deadline with fewer GPUs (${plan.boundReason}); the need is ${needText}`
      : `the best schedule found needs ${needText}; the proven lower bound is ${plan.lowerBound} GPUs (${plan.boundReason})`,
  };
}

/** Sharing changes how many schedulable GPUs each physical GPU advertises; nothing is bought. */
function sharingReview(change: CapacityChange, infra: Evidence): ChangeReview {
  return {
    change,
    verdict: 'justified',
    need: null,
    gpusNeeded: 0,
    workloads: [],
    findings: [],
    missingEvidence: [],
    reason: `GPU sharing: each GPU is advertised as ${change.gpusAfter} (was ${change.gpusBefore}); no new hardware`,
    evidence: [infra],
  };
}

/** Without the workloads the need is unknown: an increase cannot be judged, a decrease asks nothing. */
function unknownNeed(change: CapacityChange, infra: Evidence, missing: MissingEvidence, reason: string): ChangeReview {
  return {
    change,
    verdict: change.delta > 0 ? 'insufficient-evidence' : 'justified',
    need: null,
    gpusNeeded: null,
    workloads: [],
    findings: [],
    missingEvidence: [missing],
    reason,
    evidence: [infra],
  };
}

function describeTarget(change: CapacityChange): string {
  return change.kind === 'kueue-cluster-queue' ? `ClusterQueue ${change.name}` : `pool ${change.name}`;
}

function describeNeed(plan: StaggerPlan, serviceGpus: number, headroom: number, need: number): string {
  const parts = [`${plan.peakGpus} GPUs at the staggered peak`];
  if (serviceGpus > 0) parts.push(`${serviceGpus} for services`);
  if (headroom > 0) parts.push(`${Math.round(headroom * 100)}% headroom`);
  return parts.length === 1 ? `${need} GPUs` : `${need} GPUs: ${parts.join(' + ')}`;
}

/** The stagger lever: what starting runs apart does, compared with starting them all at once. */
function staggerFinding(
  jobs: JobWorkload[],
  plan: StaggerPlan,
  before: number,
  need: number,
  naiveNeed: number,
  delta: number,
): Finding | null {
  if (jobs.length === 0 || plan.schedule.length === 0) return null;
  const meetsNeed = need <= before;
  const gpusFreed = Math.max(0, Math.min(delta, naiveNeed - need));
  const runs = plan.schedule.length;
  const summary =
    plan.naivePeakGpus > plan.peakGpus
      ? `Stagger the ${runs} runs: peak ${plan.peakGpus} GPUs instead of ${plan.naivePeakGpus} when all start as their windows open, every deadline met`
      : `The ${runs} runs already peak at ${plan.peakGpus} GPUs; staggering cannot lower it`;
  return {
    lever: 'stagger',
    gpusFreed: meetsNeed ? delta : gpusFreed,
    meetsNeed,
    summary,
    confidence: plan.optimal ? 'high' : 'medium',
    evidence: [
      ...jobs.map((w): Evidence => ({
        source: 'catalog',
        ref: ref(w.source.file, w.source.line),
      })),
      { source: 'planner', ref: `${plan.optimal ? 'optimal' : 'best found'}; lower bound: ${plan.boundReason}` },
    ],
  };
}
