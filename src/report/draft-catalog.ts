import { stringify } from 'yaml';
import type { DeclaredWorkload, DraftEntry, SourceRef } from '../domain/index.js';
import { gpusOf } from '../domain/index.js';
import { formatClock } from '../workloads/clock.js';

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

/** Where it runs: the ClusterQueue its queue-name label leads to, or the pool its pods are pinned to. */
function links(w: DeclaredWorkload): string[] {
  const out: string[] = [];
  if (w.clusterQueue) {
    const via = w.localQueue ? `queue-name ${w.localQueue.name} (${at(w.localQueue.source)}) → LocalQueue` : 'LocalQueue';
    out.push(line(4, 'queue', scalar(w.clusterQueue.name), `${via} → ClusterQueue (${at(w.clusterQueue.source)})`));
  } else if (w.localQueue) {
    out.push(
      `    # queue: ${TO_CONFIRM}: the ClusterQueue of LocalQueue ${w.localQueue.name} (${at(w.localQueue.source)}); no LocalQueue of that name is in the repository`,
    );
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
    line(4, 'selector', `{namespace: ${scalar(w.namespace)}}`, `its namespace (${at(w.source)}); narrow it if the namespace runs more`),
  ];
}

function jobEntry(e: DraftEntry): string[] {
  const w = e.workload;
  const bound = w.maxRuntimeMinutes
    ? `; activeDeadlineSeconds stops it after ${w.maxRuntimeMinutes.value} min (${at(w.maxRuntimeMinutes.source)})`
    : '';
  const out = [
    line(4, 'type', w.type, `${w.kind}: it runs and ends`),
    ...links(w),
    line(4, 'gpusPerJob', String(gpusOf(w)), `${groupsText(w)} (${[...new Set(w.groups.map((g) => at(g.source)))].join(', ')})`),
    line(4, 'runtime', 'unknown', `${TO_CONFIRM}: how long one run takes${bound}`),
  ];
  const cron = w.schedule ? `schedule ${JSON.stringify(w.schedule.cron)} (${at(w.schedule.source)})` : null;
  if (e.schedule && cron) {
    out.push(line(4, 'jobsPerDay', String(e.schedule.jobsPerDay), cron));
    if (e.schedule.days) out.push(line(4, 'days', `[${e.schedule.days.join(', ')}]`, cron));
    out.push('    window:');
    // Quoted: YAML 1.1 readers take an unquoted 06:30 for a number of minutes.
    out.push(line(6, 'earliestStart', `"${formatClock(e.schedule.earliestStartUtc)}"`, `${cron}, ${e.schedule.how}`));
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

/**
 * A draft `gpu-workloads.yaml`: each workload the manifests declare, every value commented with
 * where it came from, and what only the team can know left `unknown` or commented out, marked
 * TO CONFIRM. Valid against the catalog schema as written.
 */
export function draftCatalog(entries: readonly DraftEntry[], origin: { written: string; from: string }): string {
  const head = [
    `# Draft workload catalog, written by \`gpu-justify init\` from ${origin.from} on ${origin.written}.`,
    '# Every value says where it came from. What only your team knows is marked TO CONFIRM: a field set',
    '# to `unknown` keeps its entry out of the need until you write it, so a review that rests on it asks',
    '# for it instead of guessing. Field reference: docs/catalog.md.',
  ];
  if (entries.length === 0) return [...head, '#', '# No GPU workload was found in the manifests.', 'workloads: []', ''].join('\n');
  const body = entries.flatMap((e) => [
    `  # ${e.workload.kind} ${e.workload.namespace === null ? '' : `${e.workload.namespace}/`}${e.workload.name} (${at(e.workload.source)})`,
    `  - name: ${scalar(e.name)}`,
    ...(e.workload.type === 'inference' ? inferenceEntry(e) : jobEntry(e)),
    '',
  ]);
  return [...head, 'workloads:', ...body].join('\n');
}
