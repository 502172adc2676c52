import { detectChanges } from '../../detect/index.js';
import { DEFAULT_POLICY, type CapacityChange, type DraftEntry, type TreeReader, type Workload } from '../../domain/index.js';
import {
  DEFAULT_RATE_WINDOW_MINUTES,
  inferredQueries,
  isSourceFailure,
  type NamedQuery,
  openCostSettings,
  openSource,
  POOL_LABELS,
  recordSnapshot,
  REVIEW_STEP_SECONDS,
  type Scope,
  scopeForChange,
  writeSnapshot,
} from '../../telemetry/index.js';
import { declaredInTree, draftEntries, parseCatalog } from '../../workloads/index.js';
import { parseFlags, required, UsageError } from '../args.js';
import type { Output } from '../output.js';
import { terminalProgress, withProgress } from '../progress.js';
import { readInputFile } from '../read-input.js';
import { parseAt, parseWindow } from '../telemetry-flags.js';
import { changeSetFromArgs } from '../tree-readers/change-set.js';
import { DirReader } from '../tree-readers/dir-reader.js';

type ChangeScope = Exclude<Scope, { kind: 'workload' }>;

/**
 * Without the PR, the pool label of each pool is unknown: record every label kind that names
 * pools, so a later review of any pool format finds its answers.
 */
function scopesNamed(queueNames: readonly string[], poolNames: readonly string[]): ChangeScope[] {
  const labels = [...new Set(Object.values(POOL_LABELS))];
  return [
    ...[...new Set(queueNames)].map((name): ChangeScope => ({ kind: 'queue', name })),
    ...[...new Set(poolNames)].flatMap((name) => labels.map((poolLabel): ChangeScope => ({ kind: 'pool', name, poolLabel }))),
  ];
}

const scopesFromCatalog = (workloads: Workload[]): ChangeScope[] =>
  scopesNamed(
    workloads.flatMap((w) => (w.queue ? [w.queue] : [])),
    workloads.flatMap((w) => (w.pool ? [w.pool] : [])),
  );

const linkedTo = (scope: ChangeScope, e: DraftEntry): boolean =>
  (scope.kind === 'queue' ? e.workload.clusterQueue?.name : e.workload.pool?.name) === scope.name;

/**
 * What a review with no catalog asks beyond the scopes' own queries: the runs of the Jobs of the
 * workloads its manifests link to each scope, by their namespaces (sorted, as the review asks).
 */
function inferredExtra(scopes: readonly ChangeScope[], entries: readonly DraftEntry[], windowMinutes: number): NamedQuery[] {
  return scopes.flatMap((scope) => {
    const namespaces = entries.flatMap((e) => (linkedTo(scope, e) && e.workload.namespace !== null ? [e.workload.namespace] : []));
    return inferredQueries(scope, [...new Set(namespaces)].sort(), { windowMinutes });
  });
}

/** The workloads the repository's manifests declare, as a review with no catalog drafts them. */
async function manifestEntries(tree: TreeReader, changed: readonly string[], at: Date): Promise<DraftEntry[]> {
  return draftEntries(await declaredInTree(tree, changed), at);
}

const scopesOfChanges = (changes: readonly CapacityChange[]): ChangeScope[] =>
  changes.map(scopeForChange).filter((s): s is ChangeScope => s !== null);

export const SNAPSHOT_HELP = `Usage: gpu-justify snapshot [--catalog <file> | --dir <dir>] --prometheus <url> [--opencost <url>]
                            [--at <time>] [--window <duration>] [--step <seconds>]
                            [--base <dir|ref> --head <dir|ref> [--repo <git dir>]] --out <file>

Records every telemetry answer a review needs into one JSON file, so that
gpu-justify review --snapshot <file> reproduces the review offline.

Options:
  --catalog <file>    the workload catalog whose workloads, queues and pools are measured; without
                      it, the workloads the repository's manifests declare, as a review with no
                      catalog infers them (the head side with --base/--head, else --dir)
  --dir <dir>         with no catalog and no --base/--head, the checkout whose manifests are read
                      (default: the current directory)
  --prometheus <url>  the Prometheus-compatible API to query (credentials from the environment:
                      PROMETHEUS_BEARER_TOKEN / PROMETHEUS_BASIC_AUTH / PROMETHEUS_HEADERS)
  --opencost <url>    also record GPU cost from this OpenCost API
  --at <time>         end of the window, ISO-8601 (default: now)
  --window <duration> look-back, e.g. 14d or 36h (default: 14d)
  --step <seconds>    the finest step of range queries (default 300, as reviews ask)
  --base, --head      record only what the change between these two sides needs (as in review)
  --repo <git dir>    the git repository --base and --head name (default: the current directory)
  --out <file>        where to write the snapshot

Exit codes: 0 recorded, 2 bad usage, input or telemetry settings.

Example: gpu-justify snapshot --catalog gpu-workloads.yaml --prometheus http://prometheus:9090 --out snap.json`;

/** `gpu-justify snapshot`: records every answer a review needs into one JSON file, for replay. */
export async function snapshotCommand(argv: string[], out: Output): Promise<number> {
  const flags = parseFlags(argv, {
    catalog: { type: 'string' },
    prometheus: { type: 'string' },
    opencost: { type: 'string' },
    at: { type: 'string' },
    window: { type: 'string' },
    out: { type: 'string' },
    step: { type: 'string' },
    base: { type: 'string' },
    head: { type: 'string' },
    repo: { type: 'string' },
    dir: { type: 'string' },
  });
  const prometheus = required(flags.prometheus, '--prometheus');
  const file = required(flags.out, '--out');
  const sides = flags.base !== undefined && flags.head !== undefined ? { base: flags.base, head: flags.head } : null;
  if ((flags.base === undefined) !== (flags.head === undefined)) throw new UsageError('give --base and --head together');
  if (flags.dir !== undefined && (flags.catalog !== undefined || sides !== null))
    throw new UsageError('--dir names the checkout read when there is neither --catalog nor --base/--head');
  const at = parseAt(flags.at) ?? new Date();
  const windowMinutes = parseWindow(flags.window) ?? DEFAULT_POLICY.window;

  const changeSet =
    sides === null ? null : await changeSetFromArgs({ ...sides, ...(flags.repo === undefined ? {} : { repo: flags.repo }) });
  const detected = changeSet === null ? null : scopesOfChanges((await detectChanges(changeSet)).changes);

  let workloads: Workload[] = [];
  let scopes: ChangeScope[];
  let extra: NamedQuery[] = [];
  if (flags.catalog !== undefined) {
    const catalogFile = flags.catalog;
    const catalog = parseCatalog(catalogFile, await readInputFile('--catalog', catalogFile));
    for (const d of catalog.diagnostics) out.stderr(`${d.file}${d.line === null ? '' : `:${d.line}`}: ${d.severity}: ${d.message}`);
    if (catalog.workloads.length === 0) throw new UsageError(`${catalogFile} documents no valid workload to measure`);
    workloads = catalog.workloads;
    scopes = detected ?? scopesFromCatalog(catalog.workloads);
  } else {
    // No catalog: the review infers the workloads from the manifests, and asks for their Jobs' runs.
    const tree = changeSet?.head ?? new DirReader(flags.dir ?? '.');
    const entries = await manifestEntries(tree, changeSet === null ? [] : await changeSet.changedPaths(), at);
    scopes =
      detected ??
      scopesNamed(
        entries.flatMap((e) => (e.workload.clusterQueue ? [e.workload.clusterQueue.name] : [])),
        entries.flatMap((e) => (e.workload.pool ? [e.workload.pool.name] : [])),
      );
    if (scopes.length === 0)
      throw new UsageError(
        detected === null
          ? `no workload the manifests in ${tree.label} declare names a ClusterQueue or node pool to measure; give --catalog`
          : 'the change between --base and --head grows no GPU capacity: nothing to measure',
      );
    extra = inferredExtra(scopes, entries, windowMinutes);
  }
  const step = flags.step === undefined ? undefined : Number(flags.step);
  if (step !== undefined && !(Number.isInteger(step) && step >= 15))
    throw new UsageError(`--step must be whole seconds, at least 15, got ${flags.step}`);
  const live = await openSource({ kind: 'prometheus', url: prometheus, minStepSeconds: step ?? REVIEW_STEP_SECONDS });
  const progress = withProgress(live, terminalProgress());
  const source = progress.source;
  const snapshot = await recordSnapshot({
    source,
    workloads,
    scopes,
    extra,
    at,
    windowMinutes,
    // The review asks with the same rate window, so the recorded queries are the ones it replays.
    rateWindowMinutes: DEFAULT_RATE_WINDOW_MINUTES,
    ...(flags.opencost === undefined ? {} : { opencost: openCostSettings(flags.opencost) }),
  });
  progress.done();
  const answers = Object.values(snapshot.answers);
  const missing = answers.filter((a) => a.status === 'missing').length;
  // A snapshot of nothing but failures would replay as a review that measured: none is written.
  const failed = answers.flatMap((a) => (a.status === 'missing' && isSourceFailure(a) ? [a] : []));
  if (answers.length > 0 && failed.length === answers.length) {
    out.stderr(
      `gpu-justify: nothing recorded: none of the ${answers.length} queries was answered by ${snapshot.sources.join(', ')} ` +
        `(the first: ${failed[0]?.message ?? ''}); ${file} was not written. Check that --prometheus reaches the Prometheus HTTP API ` +
        'from here, and its credentials (PROMETHEUS_BEARER_TOKEN, PROMETHEUS_BASIC_AUTH, PROMETHEUS_HEADERS).',
    );
    return 2;
  }
  await writeSnapshot(file, snapshot);
  out.stderr(`Recorded ${answers.length} answers (${missing} without data) from ${snapshot.sources.join(', ')} into ${file}.`);
  return 0;
}
