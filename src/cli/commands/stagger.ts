import { markdownTable } from 'markdown-table';
import { jobsFromWorkloads, planStagger, StaggerError, WEEK } from '../../analysis/index.js';
import { isJobWorkload, type StaggerPlan } from '../../domain/index.js';
import { nearest } from '../../util/nearest.js';
import { visible } from '../../domain/visible.js';
import { boundText, chronological, expandProblemWords, staggerProblemWords, weekdayOf } from '../../report/index.js';
import { formatClockDown } from '../../util/clock.js';
import { parseCatalog } from '../../workloads/index.js';
import { parseFlags, required, UsageError } from '../args.js';
import { jsonOutput } from '../output.js';
import type { Output } from '../output.js';
import { readInputFile } from '../read-input.js';
import { leftOutEntries, leftOutMessage, type LeftOutEntry } from './stagger-left-out.js';

export const STAGGER_HELP = `Usage: gpu-justify stagger --catalog <file> [--queue <name> | --pool <name>] [--capacity <gpus>] [--json]

Plans the catalog's batch and training jobs on a repeating day with the lowest peak of GPUs in use
that meets every window and deadline, and prints the schedule (start times in UTC). When a workload
runs on chosen weekdays (\`days\`) or has a window longer than a day, the plan repeats weekly and each run
says its day.

Options:
  --catalog <file>    the workload catalog (gpu-workloads.yaml)
  --queue <name>      only the workloads of this Kueue ClusterQueue
  --pool <name>       only the workloads of this node pool
  --capacity <gpus>   also say whether the plan fits in this many GPUs
  --json              print the plan as JSON (peakGpus, lowerBound, optimal, schedule, ...)

Exit codes: 0 planned, 2 bad usage, an unusable catalog, or a catalog entry of the planned queue or
pool (of any, without --queue or --pool) left out for its errors: the plan printed is then
incomplete, and its peak may be too low.

Example: gpu-justify stagger --catalog gpu-workloads.yaml --queue research --capacity 6`;

export async function staggerCommand(argv: string[], out: Output): Promise<number> {
  const flags = parseFlags(argv, {
    catalog: { type: 'string' },
    queue: { type: 'string' },
    pool: { type: 'string' },
    capacity: { type: 'string' },
    json: { type: 'boolean' },
  });
  const file = required(flags.catalog, '--catalog');
  if (flags.queue !== undefined && flags.pool !== undefined) throw new UsageError('give --queue or --pool, not both');
  const capacity = flags.capacity === undefined ? null : Number(flags.capacity);
  if (capacity !== null && !(Number.isInteger(capacity) && capacity >= 0)) {
    throw new UsageError(`--capacity must be a whole number of GPUs, got ${flags.capacity}`);
  }

  const catalog = parseCatalog(file, await readInputFile('--catalog', file));
  for (const d of catalog.diagnostics) out.stderr(`${d.file}${d.line === null ? '' : `:${d.line}`}: ${d.severity}: ${d.message}`);
  if (catalog.diagnostics.some((d) => d.severity === 'error') && catalog.workloads.length === 0) return 2;

  const scope = { queue: flags.queue, pool: flags.pool };
  const workloads = catalog.workloads
    .filter(isJobWorkload)
    .filter((w) => (flags.queue === undefined || w.queue === flags.queue) && (flags.pool === undefined || w.pool === flags.pool));
  const rejected = leftOutEntries(file, catalog.rejected, [], scope);
  if (workloads.length === 0 && rejected.length > 0) {
    out.stderr(`${file}: ${leftOutMessage(rejected, scope)}`);
    return 2;
  }
  if (workloads.length === 0) {
    const jobs = catalog.workloads.filter(isJobWorkload);
    const where = flags.queue
      ? ` in queue ${flags.queue}${didYouMean(
          flags.queue,
          jobs.map((w) => w.queue),
        )}`
      : flags.pool
        ? ` in pool ${flags.pool}${didYouMean(
            flags.pool,
            jobs.map((w) => w.pool),
          )}`
        : '';
    throw new UsageError(`${file} has no batch or training workload${where}`);
  }
  const { jobs, problems, cycle } = jobsFromWorkloads(workloads);
  for (const p of problems) out.stderr(`${file}: ${p.workload}: ${expandProblemWords(p)}`);
  const leftOut = leftOutEntries(file, catalog.rejected, problems, scope);
  const plan = plannedOrWorded(() => planStagger(jobs, capacity === null ? { cycle } : { capacity, cycle }));
  // The plan of the entries that could be read is still worth showing; the exit code and the
  // message keep it from passing for the plan of the whole queue.
  if (leftOut.length > 0) out.stderr(`${file}: ${leftOutMessage(leftOut, scope)}`);
  const code = leftOut.length > 0 ? 2 : 0;

  if (flags.json) {
    out.stdout(jsonOutput(staggerJson(plan, capacity, leftOut)));
    return code;
  }
  if (leftOut.length > 0) {
    out.stdout(
      `Incomplete plan: ${leftOut.length} catalog ${leftOut.length === 1 ? 'entry is' : 'entries are'} left out for errors (see above); the peak may be higher.`,
    );
  }
  out.stdout(
    `Peak ${plan.peakGpus} GPU${plan.peakGpus === 1 ? '' : 's'} (${plan.optimal ? 'optimal' : `lower bound ${plan.lowerBound}`}); all at once: ${plan.naivePeakGpus}.`,
  );
  out.stdout(visible(`Lower bound: ${boundText(plan.boundProof)}.`));
  if (capacity !== null) {
    out.stdout(plan.peakGpus <= capacity ? `Fits in ${capacity} GPUs.` : `Does not fit in ${capacity} GPUs.`);
  }
  const weekly = plan.cycle === WEEK;
  if (weekly) out.stdout('The plan repeats weekly from Monday 00:00 UTC; Day is the weekday each run starts.');
  // Workload names are the catalog's, which a PR may write: invisible characters are written out.
  const rows = staggerJson(plan, capacity).schedule.map((r) => [
    visible(r.workload),
    String(r.run),
    String(r.gpus),
    ...(r.day === undefined ? [] : [`${r.day.charAt(0).toUpperCase()}${r.day.slice(1)}`]),
    r.start,
    r.end,
  ]);
  out.stdout(markdownTable([['Workload', 'Run', 'GPUs', ...(weekly ? ['Day'] : []), 'Start (UTC)', 'End'], ...rows]));
  return code;
}

/**
 * `stagger --json` (docs/json.md): a split run appears once per piece. `complete` and
 * `leftOut` extend it: false and the entries the plan lacks when some were left out for errors.
 * `cycle` says whether the plan repeats daily or weekly; on a weekly plan each piece also has
 * the `day` it starts on, while `start` and `end` stay `HH:MM` so scripts reading them keep working.
 */
export type StaggerJson = ReturnType<typeof staggerJson>;

function staggerJson(plan: StaggerPlan, capacity: number | null, leftOut: readonly LeftOutEntry[] = []) {
  return {
    peakGpus: plan.peakGpus,
    lowerBound: plan.lowerBound,
    optimal: plan.optimal,
    capacity,
    fits: capacity === null ? null : plan.peakGpus <= capacity,
    naivePeakGpus: plan.naivePeakGpus,
    boundReason: boundText(plan.boundProof),
    boundCode: plan.boundProof.code,
    cycle: plan.cycle === WEEK ? ('week' as const) : ('day' as const),
    schedule: chronological(plan.schedule).flatMap((run) =>
      run.pieces.map((p) => ({
        workload: run.workload,
        run: run.run,
        ...(plan.cycle === WEEK ? { day: weekdayOf(p.start, plan.cycle) } : {}),
        start: formatClockDown(p.start),
        end: formatClockDown(p.end),
        gpus: run.gpus,
      })),
    ),
    complete: leftOut.length === 0,
    leftOut: [...leftOut],
  };
}

/** ` (did you mean research?)` when a queue or pool name is a near miss of one the catalog uses. */
function didYouMean(typed: string, names: readonly (string | undefined)[]): string {
  const found = nearest(
    typed,
    names.filter((n): n is string => n !== undefined),
  );
  return found === null ? '' : ` (did you mean ${found}?)`;
}

/** The plan; a planner's refusal is thrown again with its problem in words (report/), for stderr. */
function plannedOrWorded(plan: () => StaggerPlan): StaggerPlan {
  try {
    return plan();
  } catch (err) {
    if (!(err instanceof StaggerError)) throw err;
    const worded = new Error(staggerProblemWords(err.problem), { cause: err });
    worded.name = err.name;
    throw worded;
  }
}
