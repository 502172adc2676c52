import type { OutcomeCost, RuntimeCheck, ServingCapacity } from '../domain/index.js';
import { codeCell, MAX_SENTENCE, md, prose } from './escape.js';
import { duration, num, pct, unitUsd } from './numbers.js';
import { capped } from './tables.js';
import { costNoteText, servingAdvice } from './findings.js';

const rate = (r: number | null): string => (r === null ? '—' : `${num(r)} req/s`);

/** `2 of 4 declared` — replicas, or GPUs, needed at the peak against what the catalog states. */
function versus(needed: number | null, declared: number): string {
  return needed === null ? `? of ${num(declared)} declared` : `${needed} of ${num(declared)} declared`;
}

function diagnosis(s: ServingCapacity): string {
  const advice = servingAdvice(s);
  if (s.limit === null) return advice === null ? '—' : prose(advice, MAX_SENTENCE, true);
  const what = s.limit === 'batching' ? '**batching** (batch slots full, KV cache not)' : '**memory** (KV cache full)';
  return advice === null ? what : `${what}: ${prose(advice, MAX_SENTENCE, true)}`;
}

/** The load-test step goes in a code span: GFM would link text such as `name@4.5` as an e-mail address. */
export function servingTable(serving: readonly ServingCapacity[]): string {
  const rows = serving.map((s) => {
    const declaredReplicas = s.gpusPerReplica > 0 ? s.declaredGpus / s.gpusPerReplica : s.declaredGpus;
    const headroom =
      s.peakRate !== null && s.sustainableRatePerReplica !== null && s.replicasNeeded !== null
        ? `${pct(s.headroom)} → ${rate(s.peakRate * (1 + s.headroom))}`
        : pct(s.headroom);
    return [
      md(s.workload),
      s.sustainableRatePerReplica === null
        ? 'none meets the SLO'
        : `${rate(s.sustainableRatePerReplica)} (${s.loadTestStep === null ? 'load test' : codeCell(s.loadTestStep)})`,
      rate(s.peakRate),
      headroom,
      versus(s.replicasNeeded, declaredReplicas),
      versus(s.gpusNeeded, s.declaredGpus),
      diagnosis(s),
    ];
  });
  const header = [
    'Service',
    'Per replica within the SLO (load-test step)',
    'Observed peak',
    'Headroom → sized for',
    'Replicas needed',
    'Need with headroom (GPUs)',
    'What holds it back',
  ];
  return capped(header, rows, 'services');
}

/** GPUs an alternative frees against the service as it runs, on the same GPU type only. */
function freed(c: OutcomeCost, current: OutcomeCost | undefined): string {
  if (c.option === 'current' || !current || current.gpus === null || c.gpus === null) return '—';
  if (c.gpuType !== current.gpuType) return `— (${md(c.gpuType ?? 'other GPUs')})`;
  return String(current.gpus - c.gpus);
}

export function costTable(costs: readonly OutcomeCost[]): string {
  const rows = costs.map((c) => {
    const current = costs.find((x) => x.workload === c.workload && x.option === 'current');
    return [
      md(c.workload),
      c.option === 'current' ? '**current**' : md(c.option),
      c.gpus === null ? '—' : `${num(c.gpus)}${c.gpuType === null ? '' : ` × ${md(c.gpuType)}`}`,
      unitUsd(c.usdOverWindow),
      num(c.verifiedOutcomes),
      `**${unitUsd(c.usdPerVerifiedOutcome)}**`,
      c.option === 'current' ? '—' : c.qualifies ? 'yes' : 'no',
      freed(c, current),
      md(costNoteText(c.note), MAX_SENTENCE),
    ];
  });
  const header = [
    'Service',
    'Option',
    'GPUs',
    'Cost over the window',
    'Verified outcomes',
    'Cost per verified outcome',
    'Meets quality and SLO',
    'GPUs freed',
    'Note',
  ];
  return capped(header, rows, 'options');
}

export function runtimeTable(runtimes: readonly RuntimeCheck[]): string {
  // Queueing is shown when some run waited: Pending is evidence of a short pool, never runtime.
  const queued = runtimes.some((r) => (r.pendingMinutes ?? 0) >= 1);
  const rows = runtimes.map((r) => {
    const diff = r.documentedMinutes > 0 ? (r.observedMinutes - r.documentedMinutes) / r.documentedMinutes : null;
    const signed = diff === null ? '—' : `${diff > 0 ? '+' : diff < 0 ? '−' : ''}${pct(Math.abs(diff))}`;
    return [
      md(r.workload),
      duration(r.documentedMinutes),
      duration(r.observedMinutes),
      signed,
      ...(queued ? [r.pendingMinutes === undefined || r.pendingMinutes === null ? '—' : duration(r.pendingMinutes)] : []),
      r.differs ? '**update the catalog**' : 'within 25%',
    ];
  });
  const header = [
    'Job',
    'Documented runtime',
    'Observed mean runtime (Running pods)',
    'Difference',
    ...(queued ? ['Mean wait Pending (queueing)'] : []),
    '',
  ];
  return capped(header, rows, 'jobs');
}
