import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { observedForDraft } from '../../analysis/index.js';
import { DEFAULT_POLICY, InputError } from '../../domain/index.js';
import type { DraftEntry } from '../../domain/index.js';
import { MAX_FILE_CHARS } from '../../domain/limits.js';
import { type Draft, draftCatalog, type DraftTelemetry, missingWords } from '../../report/index.js';
import { askGpuJobs } from '../../telemetry/index.js';
import { declaredWorkloads, draftEntries, parseCatalog } from '../../workloads/index.js';
import { UsageError, parseFlags } from '../args.js';
import type { Output } from '../output.js';
import { telemetryFromFlags } from '../telemetry-flags.js';
import { DirReader } from '../tree-readers/dir-reader.js';

export const INIT_HELP = `Usage: gpu-justify init [--dir <repo dir>] [--out <file>] [--force]
                        [--prometheus <url>] [--at <ISO-8601 time>] [--window <duration>]

Writes a draft workload catalog from the GPU workloads the repository's own manifests declare
(CronJob, Job, JobSet, RayJob, RayCluster, RayService, PyTorchJob, TFJob, MPIJob, XGBoostJob,
PaddleJob, JAXJob, TrainJob, LeaderWorkerSet, Deployment, StatefulSet, KServe InferenceService,
KAITO Workspace): GPUs per pod and pods, schedules, the pool a node selector pins, and the
ClusterQueue a Kueue queue-name label leads to through the LocalQueue of that name where the
workload runs (its namespace, or the one its kustomization sets). Every value is
commented with the file and line it came from; what only your team knows (runtimes, deadlines,
SLOs, outcome queries) is left "unknown" or commented out and marked TO CONFIRM. The draft is valid
against the catalog schema; an entry with an "unknown" stays out of the need until it is written.

With --prometheus, the draft also carries what kube-state-metrics saw of every
Job whose pods requested GPUs over the window: runtimes (the longest completed run, with the
median and p90 beside it), runs a day and the earliest start where no schedule states them, the
GPUs the pods requested, and the GPU CronJobs and Jobs no manifest declares, as entries marked
TO CONFIRM. Each such value cites the query and window it came from. A source that answers none
of the queries writes no draft (exit 2): run without --prometheus for the repository alone.

Options:
  --dir <repo dir>    the repository to read (default: the current directory)
  --out <file>        where to write the draft (default: print it), relative to --dir unless absolute;
                      an existing file is kept unless --force
  --force             overwrite --out if it exists
  --prometheus <url>  query this Prometheus-compatible API live; credentials and extra headers come
                      from PROMETHEUS_BEARER_TOKEN / PROMETHEUS_BASIC_AUTH / PROMETHEUS_HEADERS
  --at <time>         end of the telemetry window (default: now)
  --window <duration> telemetry look-back, e.g. 14d or 36h (default: 14d)

Exit codes: 0 written, 2 bad usage, unreadable input, or telemetry that answered nothing.

Example: gpu-justify init --prometheus http://prometheus:9090 --out gpu-workloads.yaml`;

export async function initCommand(argv: string[], out: Output): Promise<number> {
  const flags = parseFlags(argv, {
    dir: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
    prometheus: { type: 'string' },
    at: { type: 'string' },
    window: { type: 'string' },
  });
  const dir = flags.dir ?? '.';
  if (!existsSync(dir)) throw new UsageError(`--dir ${dir}: no such directory`);
  // The draft belongs to the repository it was drafted from: a relative --out is inside --dir.
  const target = flags.out === undefined ? undefined : path.isAbsolute(flags.out) ? flags.out : path.join(dir, flags.out);
  if (target !== undefined && existsSync(target) && flags.force !== true) {
    throw new UsageError(`${target} exists; pass --force to overwrite it, or --out another file`);
  }
  const input = await telemetryFromFlags({ prometheus: flags.prometheus, at: flags.at, window: flags.window });
  const reader = new DirReader(dir);
  const files: { path: string; text: string }[] = [];
  for (const file of await reader.listFiles()) {
    if (!/\.ya?ml$/i.test(file)) continue;
    const text = await reader.read(file);
    if (text !== null && text.length <= MAX_FILE_CHARS) files.push({ path: file, text });
  }
  const { workloads, diagnostics } = declaredWorkloads(files);
  const entries = draftEntries(workloads, input?.at ?? new Date());
  let telemetry: DraftTelemetry | undefined;
  if (input !== undefined) {
    const asked = await askGpuJobs(input, DEFAULT_POLICY.window);
    // A draft that silently lacks what was asked for would pass for one that saw nothing run.
    if (asked.outage) {
      throw new InputError(
        `${missingWords(asked.outage, 'cli').what}; no draft written. Check that --prometheus reaches the Prometheus HTTP API from here, and its ` +
          'credentials (PROMETHEUS_BEARER_TOKEN, PROMETHEUS_BASIC_AUTH, PROMETHEUS_HEADERS), or run init without --prometheus for a draft from the repository alone',
      );
    }
    for (const m of asked.missing.map((x) => missingWords(x, 'cli'))) out.stderr(`telemetry: ${m.what} could not be read: ${m.how}`);
    telemetry = draftTelemetry(entries, asked, input.at);
  }
  const draft = draftCatalog(
    entries,
    { written: new Date().toISOString().slice(0, 10), from: dir === '.' ? 'this repository' : path.basename(path.resolve(dir)) },
    telemetry,
  );
  // The draft must be a catalog the review accepts: anything else is a bug here, not the user's.
  const check = parseCatalog(target ?? 'gpu-workloads.yaml', draft.text);
  const errors = check.diagnostics.filter((d) => d.severity === 'error');
  if (check.unreadable !== null || errors.length > 0) {
    throw new Error(`the draft is not a valid catalog: ${(check.unreadable ?? errors[0])?.message ?? 'unreadable'}`);
  }
  for (const d of diagnostics) out.stderr(`${d.file}${d.line === null ? '' : `:${d.line}`}: ${d.severity}: ${d.message}`);
  if (target === undefined) {
    out.stdout(draft.text);
    return 0;
  }
  await writeFile(target, draft.text);
  out.stderr(`wrote ${target}: ${summary(draft, check.rejected.length, telemetry)}`);
  return 0;
}

/** What the draft holds, counted from the entries as written. */
function summary(draft: Draft, leftOut: number, telemetry: DraftTelemetry | undefined): string {
  const total = draft.entries.length;
  const alone = draft.entries.filter((e) => !e.declared).length;
  const marked = draft.entries.filter((e) => e.toConfirm).length;
  const seen = telemetry ? ` (${alone} seen in telemetry alone, ${telemetry.observed.declared.size} declared ones seen running)` : '';
  const confirm =
    marked === 0
      ? 'none with a value to confirm'
      : `${marked} with values marked TO CONFIRM${leftOut > 0 ? `, ${leftOut} of them left out of the need until their "unknown" fields are written` : ''}`;
  return `${total} GPU workload${total === 1 ? '' : 's'}${seen}; ${confirm}`;
}

function draftTelemetry(entries: readonly DraftEntry[], asked: Awaited<ReturnType<typeof askGpuJobs>>, at: Date): DraftTelemetry {
  const jobs = asked.jobs;
  return {
    source: asked.source,
    window: `${asked.windowMinutes}m to ${at.toISOString()}`,
    runsQueries: jobs?.runs.evidence.map((e) => e.ref) ?? [],
    gpusQueries: jobs?.gpuEvidence.map((e) => e.ref) ?? [],
    observed: jobs ? observedForDraft(entries, jobs, asked.windowMinutes / 1440) : { declared: new Map(), undeclared: [] },
  };
}
