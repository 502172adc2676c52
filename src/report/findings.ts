import { gpusText } from './numbers.js';
import type { CostNote, Finding, FindingDetail, LadderFlag, ServingCapacity, ServingSize, Shortfall } from '../domain/index.js';

/** A share to one decimal (`12.5%`): the findings' own precision, finer than the tables' `pct`. */
function share(x: number): string {
  return `${Math.round(x * 1000) / 10}%`;
}

function round3(x: number): number {
  return Number.parseFloat(x.toPrecision(3));
}

/** Minutes as `2h`, `2h30m`, `45m`. */
function clock(minutes: number): string {
  const m = Math.round(minutes);
  return m >= 60 ? `${Math.floor(m / 60)}h${m % 60 === 0 ? '' : `${m % 60}m`}` : `${m}m`;
}

/** What to change for the limit a service's queueing shows; null when none is seen. */
export function servingAdvice(s: Pick<ServingCapacity, 'limit' | 'limitStats'>): string | null {
  const stats = s.limitStats;
  if (s.limit === null || stats === undefined) return null;
  const over = `over the ${stats.queuedSamples} samples where requests waited`;
  if (s.limit === 'memory') {
    return (
      `${over}, the KV cache was a median ${share(stats.kvMedian)} full and the scheduler preempted ${Math.round(stats.preemptions ?? 0)} times: give the KV cache more memory ` +
      '(raise `--gpu-memory-utilization`, quantise it with `--kv-cache-dtype fp8`) or shorten `--max-model-len`; add replicas only if that is not enough'
    );
  }
  return (
    `${over}, the KV cache was a median ${share(stats.kvMedian)} full (at most ${share(stats.kvMax)}) while running requests held at a median ` +
    `${round3(stats.runningMedian)} against the window's highest, ${round3(stats.runningCap)} (a fixed cap): ` +
    'raise `--max-num-seqs` (and `--max-num-batched-tokens`) so each replica batches more; this is configuration, not hardware'
  );
}

/** One sentence on the service's size, for the batching finding. */
function servingSentence(s: ServingSize): string {
  const sized =
    s.gpusNeeded === null
      ? `${s.workload}: replicas cannot be sized from measurements (${s.sustainableRatePerReplica === null ? 'no load-test step meets the SLO' : 'no observed peak'})`
      : `${s.workload}: one replica sustains ${round3(s.sustainableRatePerReplica ?? 0)} req/s within the SLO (${s.loadTestStep}); ` +
        `the observed peak of ${round3(s.peakRate ?? 0)} req/s with ${Math.round(s.headroom * 100)}% headroom needs ` +
        `${s.replicasNeeded} replica${s.replicasNeeded === 1 ? '' : 's'} (${s.gpusNeeded} GPUs), against ${s.declaredGpus} declared`;
  const advice = servingAdvice(s);
  return advice === null ? sized : `${sized}. ${s.limit === 'memory' ? 'Memory limit' : 'Batching limit'}: ${advice}`;
}

function usdPerOutcome(x: number | null): string {
  return x === null ? '?' : `$${x < 0.01 ? x.toExponential(2) : x.toFixed(2)}`;
}

/** What a pod holds: `2 GPUs`, or its MIG instances and their whole-GPU equivalent. */
export function podHeldText(p: { gpus: number; slices?: { profile: string; count: number }[] }): string {
  if (p.slices === undefined || p.slices.length === 0) return `${p.gpus} GPUs`;
  return `${p.slices.map((s) => `${s.count}× ${s.profile}`).join(' + ')} = ${gpusText(p.gpus)} GPU`;
}

/** The rule idle pods are counted by, as the report states it. */
function idlePodRule(heldMost: number): string {
  return `counted: held GPUs over ${heldMost * 100}% of the window and at its end, busy under idleBelow`;
}

function reclaimText(d: Extract<FindingDetail, { code: 'reclaim-idle' }>): string {
  const parts: string[] = [];
  if (d.idle.length > 0) {
    const who = d.idle.map((h) => {
      const held = gpusText(h.heldGpus);
      const holds = h.declaredGpus === null ? `${held} GPUs` : `${held} GPUs held of the ${h.declaredGpus} declared`;
      return `${h.workload} (${holds}, busy ${share(h.busyFraction)})`;
    });
    parts.push(`Idle allocations in ${d.target}: ${who.join(', ')}; reclaim them (shut down or shrink) before adding GPUs`);
  }
  if (d.podCount > 0) {
    const named = d.pods.map((p) => `${p.namespace}/${p.pod} (${podHeldText(p)}, busy ${share(p.busyFraction)})`);
    const more = d.podCount > d.pods.length ? ` and ${d.podCount - d.pods.length} more` : '';
    // The need is weighed against every GPU of the pool, these included: counting them again
    // as added capacity would count the same GPUs twice.
    const effect = d.relies
      ? `the ${d.gpusBefore} GPUs there meet the need only once they are reclaimed`
      : `they are among the ${d.gpusBefore} GPUs there, so the GPUs to add do not count them again`;
    const caveat =
      d.unmatchable.length > 0 ? `; ${d.unmatchable.join(', ')} name no namespace in their selector, so their pods may be among these` : '';
    parts.push(
      `Idle pods outside the catalog hold ${gpusText(d.podGpus)} GPUs of ${d.target}: ${named.join(', ')}${more}; ${effect} (${idlePodRule(d.heldMost)})${caveat}`,
    );
  }
  // A lever that frees nothing cannot be what meets the need: say what does.
  if (d.gpusFreed === 0) {
    parts.push(
      d.need <= d.gpusBefore
        ? `Reclaiming them frees no GPU the need counts; the ${d.gpusBefore} GPUs there already meet the need (${d.need} GPUs) without it`
        : 'Reclaiming them frees no GPU the need counts',
    );
  }
  return parts.join('. ');
}

/** What to write in the queue so it can borrow: its current limit, when the PR sets one, tells how far off it is. */
function borrowAdvice(d: Extract<FindingDetail, { code: 'borrow-quota' }>): string {
  const limit = d.borrowingLimit;
  const wanted = d.withoutLimit ?? d.borrowed ?? d.gpus;
  if (limit === undefined) return `with no borrowingLimit on ${d.queue}'s GPU flavor it may use them (Kueue lends within a cohort)`;
  if (limit >= wanted) return `${d.queue}'s borrowingLimit of ${limit} already reaches them`;
  return `raising ${d.queue}'s borrowingLimit from ${limit} to ${wanted} lets it use them`;
}

/** A lender with what it leaves unused and its lendingLimit: `training 2 (lendingLimit 4)`. */
function lenderText(l: Extract<FindingDetail, { code: 'borrow-quota' }>['lenders'][number]): string {
  const limit =
    l.limitFrom === 'unknown'
      ? ', lendingLimit unknown: counted as 0'
      : l.lendingLimit === undefined || l.lendingLimit === null
        ? ''
        : `, lendingLimit ${l.lendingLimit}`;
  return `${l.queue} ${l.unused}${limit === '' ? '' : ` (${limit.slice(2)})`}`;
}

function borrowText(d: Extract<FindingDetail, { code: 'borrow-quota' }>): string {
  const lenders = d.lenders.map(lenderText).join(', ');
  const borrowed = d.borrowed === undefined ? '' : `; ${d.queue} borrows ${d.borrowed} of them`;
  const shared =
    d.sharedWith === undefined || d.sharedWith.length === 0
      ? ''
      : `, after what ${d.sharedWith.join(', ')} of this pull request borrow${d.sharedWith.length === 1 ? 's' : ''} of the same quota`;
  const capped =
    d.withoutLimit === undefined || d.limitJudged === undefined
      ? ''
      : `; its borrowingLimit of ${d.limitJudged} lets it borrow ${d.gpus} of them today`;
  return (
    `The other queues of cohort ${d.cohort} leave ${d.withoutLimit ?? d.gpus} GPUs of nominal quota unused at every hour ${d.queue} needs them, ` +
    `within their lendingLimits${shared} (least unused at any hour: ${lenders})${capped}${borrowed}; ${borrowAdvice(d)}`
  );
}

function slicesText(d: Extract<FindingDetail, { code: 'mig' | 'time-slicing' }>): string {
  const peak =
    `its busiest replica peaked at ${gpusText(d.peak.memoryMiB / 1024)} GiB of framebuffer and ${share(d.peak.compute)} of the GPU's compute ` +
    `(${d.peak.computeField})${d.peak.busyPercent === null ? '' : `, ${round3(d.peak.busyPercent)}% busy`}`;
  const fit =
    d.code === 'mig'
      ? `each fits a ${d.profile ?? ''} MIG instance of the ${d.gpuModel} (${gpusText(d.slice.memoryGB)} GB, ${share(d.slice.computeShare)} of its compute; ${d.perGpu} a GPU)`
      : `their peaks add up within one ${d.gpuModel} ${d.perGpu} at a time (time-slicing: no memory or fault isolation)`;
  return `${d.workload}: ${peak}; ${fit}, so its ${d.replicas} replicas need ${d.gpusSliced} GPUs with headroom instead of ${d.gpusNow}, freeing ${d.gpusFreed}`;
}

/** A finding in one sentence (or a few, for reclaim): the JSON's `summary` and the comment's lever cell. */
export function findingText(f: Pick<Finding, 'detail'>): string {
  const d = f.detail;
  switch (d.code) {
    case 'stagger':
      return d.naivePeak > d.peak
        ? `Stagger the ${d.runs} runs: peak ${d.peak} GPUs instead of ${d.naivePeak} when all start as their windows open, every deadline met`
        : `The ${d.runs} runs already peak at ${d.peak} GPUs; staggering cannot lower it`;
    case 'runtime-off': {
      const parts = d.jobs.map(
        (c) =>
          `${c.workload} is documented at ${clock(c.documentedMinutes)} but its runs took ${clock(c.observedMinutes)} on average` +
          (c.observedMinutes > c.documentedMinutes ? ' (planned with the observed runtime)' : '') +
          (c.pendingMinutes === undefined ? '' : `, after waiting ${clock(c.pendingMinutes)} Pending (queueing, not runtime)`),
      );
      return `Runtime off by more than ${d.tolerance * 100}%: ${parts.join('; ')}; update \`runtime:\` in the catalog`;
    }
    case 'serving-size':
      return servingSentence(d.serving);
    case 'cheaper-model': {
      const where = d.sameType ? '' : ` on ${d.gpus} ${d.gpuType} GPUs elsewhere`;
      return (
        `${d.workload}: ${d.option} costs ${usdPerOutcome(d.usdPerVerifiedOutcome)} per verified outcome against ${usdPerOutcome(d.currentUsdPerVerifiedOutcome)} now, ` +
        `meets the quality threshold and the SLO at the observed peak with ${d.gpus} GPUs${where}, freeing ${d.gpusFreed} GPUs`
      );
    }
    case 'reclaim-idle':
      return reclaimText(d);
    case 'borrow-quota':
      return borrowText(d);
    case 'mig':
    case 'time-slicing':
      return slicesText(d);
  }
}

/** A ladder's flag in one sentence (the JSON's `message`). */
export function flagText(f: LadderFlag): string {
  switch (f.kind) {
    case 'idle':
      return `${f.name} was busy ${share(f.busyFraction)} of its ${round3(f.allocatedGpuHours)} allocated GPU-hours, under the policy's idleBelow (${share(f.idleBelow)})`;
    case 'memory-bound':
      // Each GPU is held back, not the work: data-parallel jobs and replicas still scale with more GPUs.
      return `${f.name} is memory-bound: busy ${share(f.busyFraction)}, memory bandwidth active ${share(f.memoryFraction)} but SMs only ${share(f.smFraction)}; larger batches, fused kernels or lower precision raise what each GPU does (more GPUs still add throughput to data-parallel work, each as held back)`;
  }
}

function shortfallText(s: Shortfall): string {
  switch (s.code) {
    case 'no-quality-threshold':
      return 'no quality threshold';
    case 'no-quality':
      return 'no quality measured';
    case 'quality-under-threshold':
      return `quality ${s.quality} is under the threshold ${s.threshold}`;
    case 'load-test-misses-slo':
      return 'its load test does not show it meeting the SLO';
    case 'no-peak':
      return 'no observed peak to size it for';
    case 'no-price':
      return `no price for ${s.gpuType ?? 'its GPU type'}`;
  }
}

/** What a cost rests on, or why an alternative does not qualify (the JSON's `note`). */
export function costNoteText(n: CostNote): string {
  switch (n.code) {
    case 'opencost':
      return 'GPU cost from OpenCost';
    case 'requested-gpu-hours':
      return `${round3(n.gpuHours)} GPU-hours requested${n.mig ? ' (MIG devices as their share of a GPU)' : ''} × $${n.usdPerGpuHour}/GPU-hour`;
    case 'no-price':
      return 'no price';
    case 'no-gpu-hours':
      return 'no GPU-hours';
    case 'alternative-sized':
      return `${n.replicas} replicas at the observed peak, all window, ${n.sameType ? 'same' : n.gpuType} GPUs`;
    case 'alternative-short':
      return n.shortfalls.map(shortfallText).join('; ');
  }
}
