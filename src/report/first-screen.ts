import { markdownTable } from 'markdown-table';
import type { CapacityChange, ChangeReview, ReviewResult, TelemetryOutage } from '../domain/index.js';
import { gpusAskedBy } from '../analysis/index.js';
import { monthlyUsd, requestedMonthlyUsd, usd } from './cost.js';
import { doThis } from './do-this.js';
import { code, md } from './escape.js';
import { modeLine } from './mode-line.js';
import type { Surface } from './surface.js';
import { screenNumbers } from './screen-numbers.js';

/** Changes the first screen names one by one before counting the rest. */
const MAX_ASKS = 3;

const KIND_LABEL: Record<CapacityChange['kind'], string> = {
  'kueue-cluster-queue': 'Kueue ClusterQueue',
  'kueue-cohort': 'Kueue Cohort',
  'karpenter-nodepool': 'Karpenter NodePool',
  'eksctl-nodegroup': 'eksctl node group',
  'capi-machinedeployment': 'Cluster API MachineDeployment',
  'gke-node-pool': 'GKE node pool',
  'eks-node-group': 'EKS node group',
  'aks-node-pool': 'AKS node pool',
  'openshift-cluster-autoscaler': 'OpenShift ClusterAutoscaler',
  'openshift-machineset': 'OpenShift MachineSet',
  'gke-autoprovisioning': 'GKE node auto-provisioning',
  'sagemaker-hyperpod-group': 'SageMaker HyperPod group',
  'coreweave-nodepool': 'CoreWeave NodePool',
  'nebius-node-group': 'Nebius node group',
  'crusoe-node-pool': 'Crusoe node pool',
  'civo-node-pool': 'Civo node pool',
  'oci-node-pool': 'OKE node pool',
  'kai-queue': 'KAI Scheduler Queue',
  'volcano-queue': 'Volcano Queue',
  'gardener-worker': 'Gardener Shoot worker pool',
  'deckhouse-nodegroup': 'Deckhouse NodeGroup',
  'gpu-sharing': 'GPU sharing',
};

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * `research (Kueue ClusterQueue, A100): 6 → 12 GPUs (+6), +$16,075/month`; another model at the same
 * count: `gpu (Karpenter NodePool, A10G → L4): 16 → 16 GPUs (0), …`.
 */
function ask(c: CapacityChange): string {
  const cost = monthlyUsd(c);
  const model =
    c.gpuModelBefore !== undefined && c.gpuModel ? `${md(c.gpuModelBefore)} → ${md(c.gpuModel)}` : c.gpuModel ? md(c.gpuModel) : null;
  const what = [KIND_LABEL[c.kind], ...(model !== null ? [model] : [])].join(', ');
  return `${code(c.name, 80)} (${what}): ${c.gpusBefore} → ${c.gpusAfter} GPUs (${signed(c.delta)})${cost === null ? '' : `, ${usd(cost, true)}/month`}`;
}

/** What the PR asks for: each changed pool or queue, before → after, the GPU model and the cost. */
function asks(result: ReviewResult): string | null {
  const changed = result.changes.filter((c) => c.delta !== 0 || c.kind === 'gpu-sharing' || c.gpuModelBefore !== undefined);
  if (changed.length === 0) return null;
  const more = changed.length > MAX_ASKS ? `; and ${changed.length - MAX_ASKS} more (below)` : '';
  // Several growing changes: their sum, when every one is priced (a partial sum would understate it).
  const total = changed.filter((c) => c.delta > 0).length > 1 ? requestedMonthlyUsd(result.changes) : null;
  const sum = total === null ? '' : `; in all ${usd(total, true)}/month`;
  return `**This PR asks:** ${changed.slice(0, MAX_ASKS).map(ask).join('; ')}${more}${sum}.`;
}

const cell = (n: number | null): string => (n === null ? '—' : String(n));
/** The peak row's name when it is above the capacity there: demand, not use. */
const PEAK_DEMAND = 'Peak demand, runs at window open';
const added = (n: number | null): string => (n === null ? '—' : signed(n));

/** Today / This PR / Recommended for one change: capacity, peak in use, need with headroom, GPUs to add. */
function numbersTable(review: ChangeReview): string {
  const n = screenNumbers(review);
  const capacity = n.borrowed > 0 ? `${cell(n.capacity.recommended)} + ${n.borrowed} borrowed` : cell(n.capacity.recommended);
  // More than the GPUs there cannot be in use: above them, the peak is what the runs would hold if all started as their windows open.
  const overCapacity = n.peakInUse.today !== null && n.capacity.today !== null && n.peakInUse.today > n.capacity.today;
  const rows = [
    ['Capacity', cell(n.capacity.today), cell(n.capacity.thisPr), capacity],
    [overCapacity ? PEAK_DEMAND : 'Peak in use', cell(n.peakInUse.today), cell(n.peakInUse.thisPr), cell(n.peakInUse.recommended)],
    ['Need with headroom', cell(n.needWithHeadroom.today), cell(n.needWithHeadroom.thisPr), cell(n.needWithHeadroom.recommended)],
    ['GPUs to add', added(n.gpusToAdd.today), added(n.gpusToAdd.thisPr), added(n.gpusToAdd.recommended)],
  ];
  return markdownTable([[`GPUs in ${md(review.change.name)}`, 'Today', 'This PR', 'Recommended'], ...rows]);
}

function days(minutes: number): string {
  const d = minutes / 1440;
  if (d >= 1) return `${Number(d.toFixed(1))} day${d === 1 ? '' : 's'}`;
  return `${Math.round(minutes / 60)} hours`;
}

/**
 * One line on what the numbers rest on: the files alone, or telemetry over N days, and how
 * complete it was. Low confidence leads with a warning so it cannot be missed.
 */
function evidenceLine(result: ReviewResult, surface: Surface): string {
  const telemetry = result.context.telemetry;
  const growing = result.reviews.filter((r) => gpusAskedBy(r) > 0);
  const levels = growing.map((r) => r.confidence);
  // A source that answered nothing measured nothing, whatever window the review asked for.
  if (telemetry?.outage !== undefined) return `⚠️ **Evidence: not measured:** ${outageWords(telemetry.source, telemetry.outage)}.`;
  if (result.verdict === 'insufficient-evidence') {
    const n = result.missingEvidence.length;
    const measured = telemetry === undefined ? 'from the files alone' : `with ${days(telemetry.windowMinutes)} of telemetry`;
    const why = n === 0 ? 'some changed files were not followed (below)' : `${n} item${n === 1 ? '' : 's'} missing (above)`;
    return `⚠️ **Evidence: too little to judge, no confidence.** Reviewed ${measured}; ${why}.`;
  }
  if (telemetry === undefined) {
    const connect = surface === 'cli' ? 'pass `--prometheus <url>`' : 'set `PROMETHEUS_URL` where gpu-justify runs (docs/telemetry.md)';
    return `⚠️ **Evidence: files only, confidence low.** Runtimes, GPUs and windows are as the catalog documents them, not measured; to measure them, ${connect}.`;
  }
  // The source (a URL or a snapshot path) is in the footer; here, how long and until when.
  const over = `measured over ${days(telemetry.windowMinutes)} of telemetry to ${md(telemetry.at.slice(0, 10))}`;
  if (levels.includes('low')) return `⚠️ **Evidence: ${over}, confidence low:** telemetry answered too little to measure the need.`;
  if (levels.includes('inferred')) {
    // A catalog review is inferred when it filled an entry's `unknown` fields; it then has a plan.
    const filled = growing.some((r) => r.confidence === 'inferred' && r.plan !== undefined);
    return filled
      ? `⚠️ **Evidence: ${over}, inferred:** what the catalog leaves \`unknown\` is taken from the workloads' manifests and observed runs (what to confirm is listed below).`
      : `⚠️ **Evidence: ${over}, inferred:** no catalog documents the workloads; the verdict rests on what telemetry observed (what to confirm is listed below).`;
  }
  if (levels.includes('medium')) return `⚠️ **Evidence: ${over}, confidence medium:** some telemetry is missing (the checklist below).`;
  return `**Evidence:** ${over}; confidence high.`;
}

/**
 * Why a telemetry source measured nothing: on the first screen in markdown (the first failure is in
 * the checklist below it), on the CLI's stderr as plain text with the first failure.
 */
export function outageWords(source: string, outage: TelemetryOutage, plain = false): string {
  const name = plain ? source : md(source);
  const what = {
    unavailable: `${name} could not be reached`,
    'bad-response': `${name} did not answer as a Prometheus HTTP API`,
    config: `the settings of ${name} are invalid`,
  }[outage.reason];
  const first = plain ? `; the first: ${outage.detail}` : '';
  return `${what} (none of its ${outage.queries} queries was answered${first}); the review judged from the files alone`;
}

/** The change the numbers table shows: the first that grows, else the first that changes. */
function shown(result: ReviewResult): ChangeReview | undefined {
  return result.reviews.find((r) => gpusAskedBy(r) > 0) ?? result.reviews.find((r) => r.change.delta !== 0);
}

/**
 * What a reader sees before unfolding anything, under the headline: what the PR asks, the
 * numbers, the exact change to make, what the evidence is and the mode. Everything else folds.
 */
export function firstScreen(result: ReviewResult, surface: Surface): string[] {
  const parts: string[] = [];
  const asked = asks(result);
  if (asked !== null) parts.push(asked);
  const review = shown(result);
  if (review !== undefined && result.verdict !== 'no-gpu-change') {
    const others = result.reviews.filter((r) => r.change.delta !== 0).length - 1;
    parts.push(numbersTable(review) + (others > 0 ? `\n\n_${others} more change(s) in the table below._` : ''));
  }
  const todo = doThis(result, surface);
  if (todo !== null) parts.push(todo);
  if (result.verdict !== 'no-gpu-change') parts.push(evidenceLine(result, surface));
  parts.push(modeLine(result, surface));
  return parts;
}
