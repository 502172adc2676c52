import { stringify } from 'yaml';
import type { DeclaredWorkload, DraftEntry, LocalQueueSeen, ObservedForDraft, ObservedWorkload, SourceRef } from '../domain/index.js';
import { gpusOf } from '../domain/index.js';
import { formatDuration } from '../workloads/index.js';
import { formatClockNearest } from '../util/clock.js';
import { itemAt } from '../util/indexed.js';

/** What `init --prometheus` adds to a draft: what telemetry saw, and the queries and window it asked. */
export interface DraftTelemetry {
  /** The source asked, credentials removed. */
  source: string;
  /** `<minutes>m to <ISO end>`: the window every observed value covers. */
  window: string;
  /** The PromQL of the Jobs' start and completion times. */
  runsQueries: string[];
  /** The PromQL of the GPUs their pods requested. */
  gpusQueries: string[];
  observed: ObservedForDraft;
}

const RUNS = '[runs]';
const GPUS = '[gpus]';

const TO_CONFIRM = 'TO CONFIRM';
const at = (s: SourceRef) => (s.line === null ? s.file : `${s.file}:${s.line}`);
/** A YAML scalar as the yaml library would write it: quoted when it must be. */
const scalar = (value: string | number) => stringify(value).trimEnd();

/** `key: value   # why`, aligned so the values read as a column. */
function line(indent: number, key: string, value: string, why: string): string {
  const text = `${' '.repeat(indent)}${key}: ${value}`;
  return `${text.padEnd(Math.max(text.length + 1, 34))}# ${why}`;
}

function groupsText(w: DeclaredWorkload): string {
  return w.groups.map((g) => `${g.pods} ${g.role} pod${g.pods === 1 ? '' : 's'} × ${g.gpusPerPod} ${w.gpuResource}`).join(' + ');
}

/**
 * The LocalQueues a lookup weighed, one per namespace and ClusterQueue (copies in versioned or
 * overlay folders counted): `team-a → cq-a (queues.yaml:9, and 2 copies)`.
 */
function seenList(qs: readonly LocalQueueSeen[]): string {
  const groups = new Map<string, LocalQueueSeen[]>();
  for (const q of qs) {
    const key = `${q.namespace ?? '(no namespace)'} → ${q.clusterQueue}`;
    groups.set(key, [...(groups.get(key) ?? []), q]);
  }
  const named = [...groups].slice(0, 4).map(([key, [first, ...copies]]) => {
    const more = copies.length === 0 ? '' : `, and ${copies.length} cop${copies.length === 1 ? 'y' : 'ies'}`;
    return `${key} (${first ? at(first.source) : ''}${more})`;
  });
  return groups.size > 4 ? `${named.join(', ')} and ${groups.size - 4} more` : named.join(', ');
}

/** Why the queue line says what it says, from how the LocalQueue was found. */
function queueWhy(w: DeclaredWorkload, cq: { name: string; source: SourceRef }): string {
  const lq = w.localQueue;
  const via = lq ? `queue-name ${lq.name} (${at(lq.source)}) → LocalQueue` : 'LocalQueue';
  const chain = `${via} → ClusterQueue (${at(cq.source)})`;
  const lookup = w.queueLookup;
  const namespaces = [...new Set(lookup?.candidates.map((q) => q.namespace ?? '(no namespace)') ?? [])];
  switch (lookup?.code) {
    case 'agree':
      return namespaces.length > 1
        ? `${chain}; it names no namespace, and the LocalQueue in each of ${namespaces.join(', ')} leads there`
        : chain;
    case 'nearest':
      return `${TO_CONFIRM}: ${chain}, the one beside it; LocalQueues of that name ${
        w.namespace === null ? '' : `in namespace ${w.namespace} `
      }elsewhere lead elsewhere: ${seenList(
        lookup.candidates.filter((q) => q.clusterQueue !== cq.name && (w.namespace === null || q.namespace === w.namespace)),
      )}`;
    case 'default-namespace':
      return `${TO_CONFIRM}: ${chain} in namespace default, where it runs when applied without one; the others: ${seenList(
        lookup.candidates.filter((q) => q.clusterQueue !== cq.name),
      )}`;
    default:
      return chain;
  }
}

/** Where it runs: the ClusterQueue its queue-name label leads to, or the pool its pods are pinned to. */
function links(w: DeclaredWorkload): string[] {
  const out: string[] = [];
  if (w.clusterQueue) {
    out.push(line(4, 'queue', scalar(w.clusterQueue.name), queueWhy(w, w.clusterQueue)));
  } else if (w.localQueue) {
    const lq = `LocalQueue ${w.localQueue.name} (${at(w.localQueue.source)})`;
    const candidates = w.queueLookup?.candidates ?? [];
    const ns = w.namespace === null ? 'it names no namespace' : `it runs in namespace ${w.namespace}`;
    const why =
      w.queueLookup?.code === 'ambiguous'
        ? `LocalQueues of that name lead to different ClusterQueues and ${ns}: ${seenList(candidates)}`
        : w.queueLookup?.code === 'other-namespaces'
          ? `${ns}, and the repository has that LocalQueue only elsewhere: ${seenList(candidates)}`
          : 'no LocalQueue of that name is in the repository';
    out.push(`    # queue: ${TO_CONFIRM}: the ClusterQueue of ${lq}; ${why}`);
  }
  if (w.pool) out.push(line(4, 'pool', scalar(w.pool.name), `nodeSelector ${w.pool.label} (${at(w.pool.source)})`));
  if (!w.clusterQueue && !w.pool) {
    const type = w.instanceType ? `; its pods run on ${w.instanceType.name} (${at(w.instanceType.source)})` : '';
    out.push(`    # pool: ${TO_CONFIRM}: the node pool or queue it runs in (no selector or queue label names one${type})`);
  }
  return out;
}

function selector(w: DeclaredWorkload): string[] {
  if (w.namespace === null) return [`    # selector: ${TO_CONFIRM} (optional): the Prometheus labels of its pods, e.g. {namespace: …}`];
  return [
    line(
      4,
      'selector',
      `{namespace: ${scalar(w.namespace)}}`,
      `its namespace (${at(w.namespaceFrom ?? w.source)}${w.namespaceFrom ? ', the kustomization that applies it' : ''}); narrow it if the namespace runs more`,
    ),
  ];
}

/** `runtime:` from the completed runs seen, else `unknown` for the team. */
function runtimeLine(obs: ObservedWorkload | undefined, bound: string): string {
  const r = obs?.runtime ?? null;
  if (obs === undefined || r === null) {
    const seen = obs === undefined ? '' : `; ${obs.runs} run${obs.runs === 1 ? '' : 's'} seen, none completed ${RUNS}`;
    return line(4, 'runtime', 'unknown', `${TO_CONFIRM}: how long one run takes${bound}${seen}`);
  }
  const stats =
    r.completed === 1
      ? 'its one completed run'
      : `longest of ${r.completed} completed runs (median ${formatDuration(r.median)}, p90 ${formatDuration(r.p90)})`;
  return line(4, 'runtime', formatDuration(r.longest), `${TO_CONFIRM}: observed, ${stats} ${RUNS}${bound}`);
}

/** `jobsPerDay:` and `earliestStart:` from the runs seen, for a workload no schedule states. */
function observedSchedule(obs: ObservedWorkload): string[] | null {
  if (obs.runsPerDay === null || obs.earliestStartUtc === null) return null;
  return [
    line(
      4,
      'jobsPerDay',
      // The catalog plans at most one run a minute.
      String(Math.min(obs.runsPerDay, 1440)),
      `${TO_CONFIRM}: observed, ${obs.runs} run${obs.runs === 1 ? '' : 's'} over the window ${RUNS}`,
    ),
    '    window:',
    line(
      6,
      'earliestStart',
      `"${formatClockNearest(obs.earliestStartUtc)}"`,
      `${TO_CONFIRM}: observed, the earliest start of a run (UTC) ${RUNS}`,
    ),
  ];
}

function jobEntry(e: DraftEntry, obs?: ObservedWorkload): string[] {
  const w = e.workload;
  const bound = w.maxRuntimeMinutes
    ? `; activeDeadlineSeconds stops it after ${w.maxRuntimeMinutes.value} min (${at(w.maxRuntimeMinutes.source)})`
    : '';
  const gpus = gpusOf(w);
  const seenGpus = obs?.gpusPerRun ?? null;
  const out = [
    line(4, 'type', w.type, `${w.kind}: it runs and ends`),
    ...links(w),
    line(4, 'gpusPerJob', String(gpus), `${groupsText(w)} (${[...new Set(w.groups.map((g) => at(g.source)))].join(', ')})`),
    ...(seenGpus === null ? [] : [`    # observed: its pods requested ${seenGpus} GPU${seenGpus === 1 ? '' : 's'} a run ${GPUS}`]),
    runtimeLine(obs, bound),
  ];
  const cron = w.schedule ? `schedule ${JSON.stringify(w.schedule.cron)} (${at(w.schedule.source)})` : null;
  const seen = obs && !(e.schedule && cron) ? observedSchedule(obs) : null;
  if (seen) out.push(...seen);
  else if (e.schedule && cron) {
    out.push(line(4, 'jobsPerDay', String(e.schedule.jobsPerDay), cron));
    if (e.schedule.days) out.push(line(4, 'days', `[${e.schedule.days.join(', ')}]`, cron));
    out.push('    window:');
    // Quoted: YAML 1.1 readers take an unquoted 06:30 for a number of minutes.
    out.push(line(6, 'earliestStart', `"${formatClockNearest(e.schedule.earliestStartUtc)}"`, `${cron}, ${e.schedule.how}`));
  } else {
    out.push(
      cron
        ? `    # jobsPerDay: ${TO_CONFIRM}: ${cron} is not a daily pattern this draft can read`
        : `    # jobsPerDay: ${TO_CONFIRM}: how many runs a day (a ${w.kind} states no schedule)`,
    );
    out.push('    window:');
    out.push(line(6, 'earliestStart', 'unknown', `${TO_CONFIRM}: the earliest time a run may start (UTC)`));
  }
  out.push(line(6, 'deadline', 'unknown', `${TO_CONFIRM}: when its results are needed (UTC)`));
  out.push(...selector(w));
  out.push(`    # outcomes: ${TO_CONFIRM} (optional): PromQL counting its verified and all outcomes, e.g.`);
  out.push('    #   verified: sum(increase(my_runs_total{result="pass"}[1d]))');
  return out;
}

function inferenceEntry(e: DraftEntry): string[] {
  const w = e.workload;
  const same = w.groups.every((g) => g.gpusPerPod === w.groups[0]?.gpusPerPod);
  const pods = w.groups.reduce((n, g) => n + g.pods, 0);
  const where = [...new Set(w.groups.map((g) => at(g.source)))].join(', ');
  // Groups of different sizes (a Ray head and its workers) serve as one replica of all their GPUs.
  const [perReplica, replicas] = same ? [w.groups[0]?.gpusPerPod ?? 0, pods] : [gpusOf(w), 1];
  return [
    line(4, 'type', 'inference', `${w.kind}: a long-running service`),
    ...links(w),
    line(4, 'gpusPerReplica', String(perReplica), same ? `${w.gpuResource} per pod (${where})` : `${groupsText(w)} (${where})`),
    line(4, 'replicas', String(replicas), same ? `${groupsText(w)}` : 'its groups together'),
    ...selector(w),
    `    # slo: ${TO_CONFIRM} (optional): what the service must keep, e.g.`,
    '    #   p95LatencyMs: 2000',
    `    # model: ${TO_CONFIRM} (optional): the model it serves`,
  ];
}

/** A GPU workload telemetry saw run that no manifest declares: the whole entry is to confirm. */
function undeclaredEntry(o: ObservedWorkload & { gpusPerRun: number }, name: string, source: string): string[] {
  const schedule = observedSchedule(o) ?? [];
  return [
    `  # ${o.kind} ${o.namespace}/${o.name}: seen running in ${source}, declared in no manifest of this repository. ${TO_CONFIRM}: the whole entry`,
    `  - name: ${scalar(name)}`,
    line(4, 'type', 'batch', `${TO_CONFIRM}: a ${o.kind} runs Jobs that end; training if it trains`),
    `    # pool: ${TO_CONFIRM}: the node pool or queue it runs in (the metrics do not say)`,
    line(
      4,
      'gpusPerJob',
      String(o.gpusPerRun),
      `observed: its pods requested ${o.gpusPerRun} GPU${o.gpusPerRun === 1 ? '' : 's'} a run ${GPUS}`,
    ),
    runtimeLine(o, ''),
    ...schedule,
    line(6, 'deadline', 'unknown', `${TO_CONFIRM}: when its results are needed (UTC)`),
    line(4, 'selector', `{namespace: ${scalar(o.namespace)}}`, 'its namespace in the metrics; narrow it if the namespace runs more'),
    '',
  ];
}

/** The queries and window every observed value comes from, cited as [runs] and [gpus]. */
function telemetryHead(t: DraftTelemetry): string[] {
  const cite = (label: string, queries: readonly string[]) =>
    queries.map((q, i) => `#   ${i === 0 ? label : ' '.repeat(label.length)} ${q}`);
  if (t.runsQueries.length === 0 && t.gpusQueries.length === 0) {
    return ['#', `# No Job whose pods requested GPUs was seen in ${t.source} over ${t.window}.`];
  }
  return [
    '#',
    `# Values marked "observed" come from ${t.source} over ${t.window}, asked by:`,
    ...cite(RUNS, t.runsQueries),
    ...cite(GPUS, t.gpusQueries),
  ];
}

/** Names for the workloads seen but not declared, unique against the draft's own. */
function undeclaredNames(entries: readonly DraftEntry[], seen: readonly ObservedWorkload[]): string[] {
  const used = new Set(entries.map((e) => e.name));
  return seen.map((o) => {
    let name = used.has(o.name) ? `${o.namespace}-${o.name}` : o.name;
    for (let i = 2; used.has(name); i++) name = `${o.namespace}-${o.name}-${i}`;
    used.add(name);
    return name;
  });
}

/** A draft as written, and what each of its entries holds, for the summary `init` prints. */
export interface Draft {
  text: string;
  entries: DraftWritten[];
}

interface DraftWritten {
  name: string;
  /** Declared by a manifest (else seen in telemetry alone). */
  declared: boolean;
  /** Some value of the entry is marked TO CONFIRM. */
  toConfirm: boolean;
}

/**
 * A draft `gpu-workloads.yaml`: each workload the manifests declare, every value commented with
 * where it came from, and what only the team can know left `unknown` or commented out, marked
 * TO CONFIRM. With telemetry, what the workloads' runs show, and the GPU workloads seen running
 * that no manifest declares. Valid against the catalog schema as written.
 */
export function draftCatalog(entries: readonly DraftEntry[], origin: { written: string; from: string }, telemetry?: DraftTelemetry): Draft {
  const head = [
    `# Draft workload catalog, written by \`gpu-justify init\` from ${origin.from} on ${origin.written}.`,
    '# Every value says where it came from. What only your team knows is marked TO CONFIRM: a field set',
    '# to `unknown` keeps its entry out of the need until you write it, so a review that rests on it asks',
    '# for it instead of guessing. Field reference: docs/catalog.md.',
    ...(telemetry ? telemetryHead(telemetry) : []),
  ];
  const seen = (telemetry?.observed.undeclared ?? []).filter((o): o is ObservedWorkload & { gpusPerRun: number } => o.gpusPerRun !== null);
  if (entries.length === 0 && seen.length === 0) {
    const where = telemetry ? 'in the manifests or in the metrics' : 'in the manifests';
    return { text: [...head, '#', `# No GPU workload was found ${where}.`, 'workloads: []', ''].join('\n'), entries: [] };
  }
  // Each entry's lines, so what the summary counts is what was written.
  const declared = entries.map((e) => ({
    name: e.name,
    declared: true,
    lines: [
      `  # ${e.workload.kind} ${e.workload.namespace === null ? '' : `${e.workload.namespace}/`}${e.workload.name} (${at(e.workload.source)})`,
      `  - name: ${scalar(e.name)}`,
      ...(e.workload.type === 'inference' ? inferenceEntry(e) : jobEntry(e, telemetry?.observed.declared.get(e.name))),
      '',
    ],
  }));
  const names = undeclaredNames(entries, seen);
  const extra = seen.map((o, i) => {
    const name = itemAt(names, i, 'one name for each workload seen');
    return { name, declared: false, lines: undeclaredEntry(o, name, telemetry?.source ?? 'telemetry') };
  });
  const blocks = [...declared, ...extra];
  return {
    text: [...head, 'workloads:', ...blocks.flatMap((b) => b.lines)].join('\n'),
    entries: blocks.map((b) => ({ name: b.name, declared: b.declared, toConfirm: b.lines.some((l) => l.includes(TO_CONFIRM)) })),
  };
}
