import type { CapacityChange, MeasurableWorkload, MissingEvidence, TreeReader } from '../domain/index.js';
import { readOrWhy, UnreadablePathError } from '../domain/index.js';
import { withCircuitBreaker } from './circuit-breaker.js';
import { gatherEvidence, type TelemetryEvidence } from './gather.js';
import { fail } from '../domain/result.js';
import { importLoadTest, type LoadTestImport } from './loadtest/index.js';
import type { AllocationQuery, AllocationResult } from './opencost/client.js';
import { inferredQueries } from './queries/jobs.js';
import type { Scope } from './queries/named-query.js';
import { scopeForChange } from './scopes.js';
import type { TelemetrySource } from './source.js';

export const DEFAULT_RATE_WINDOW_MINUTES = 10;

/**
 * The finest range-query step of a review, seconds. Capacity is a question of hours and days:
 * five-minute steps keep a 14-day look-back near 4,000 points per series, so a review fetches
 * and parses a fraction of what one-minute steps would cost, and snapshots stay small.
 */
export const REVIEW_STEP_SECONDS = 300;

/** Where a review's telemetry comes from: a live Prometheus or a snapshot, and optionally OpenCost. */
export interface TelemetryInput {
  source: TelemetrySource;
  /** End of the look-back window. */
  at: Date;
  /** Overrides the policy's `window`. */
  windowMinutes?: number;
  /**
   * Window of rate()/increase() inside range queries, minutes. It must span at least two scrapes:
   * the default covers scrape intervals up to five minutes.
   */
  rateWindowMinutes?: number;
  /** OpenCost's allocation by namespace, live or replayed; absent when OpenCost is not configured. */
  allocation?: (q: AllocationQuery) => Promise<AllocationResult>;
}

/** Everything measured for one review, data only, for the pure analysis. */
export interface ReviewTelemetry {
  /** Which source answered, credentials removed. */
  source: string;
  at: string;
  windowMinutes: number;
  evidence: TelemetryEvidence;
  /** Load tests named by the catalog (`loadTest:` of workloads and alternatives), by that path. */
  loadTests: Map<string, LoadTestImport>;
  /** OpenCost's GPU hours and cost by namespace; null when OpenCost is not configured. */
  allocation: AllocationResult | null;
  /** Everything that could not be measured, as the report lists it. */
  missing: MissingEvidence[];
  /**
   * Load tests the pull request edits, read as the base branch has them: said in the review's
   * missing evidence whatever uses them, since the PR's own numbers were set aside.
   */
  loadTestNotes: MissingEvidence[];
}

export interface CollectRequest {
  changes: readonly CapacityChange[];
  workloads: readonly MeasurableWorkload[];
  windowMinutes: number;
  /** The head side: load-test files live in the repo next to the catalog. */
  repo: TreeReader;
  /**
   * The base side. When given, a load test the pull request adds does not count and one it edits
   * is read as the base branch has it: a PR cannot write the measurement that sizes its services.
   */
  base?: TreeReader;
  /**
   * Set when no catalog documents the workloads: per changed scope (`pool:<name>`, `queue:<name>`),
   * the namespaces of the workloads the manifests link to it, whose Job runs are asked for.
   */
  inferred?: ReadonlyMap<string, readonly string[]>;
}

function loadTestPaths(workloads: readonly MeasurableWorkload[]): string[] {
  const paths = workloads.flatMap((w) => (w.type === 'inference' ? [w.loadTest, ...w.alternatives.map((a) => a.loadTest)] : []));
  return [...new Set(paths.filter((p): p is string => p !== undefined))];
}

/** Asks every question a review needs, in parallel; failures come back as missing evidence. */
export async function collectTelemetry(input: TelemetryInput, req: CollectRequest): Promise<ReviewTelemetry> {
  const windowMinutes = input.windowMinutes ?? req.windowMinutes;
  const scopes = req.changes.map(scopeForChange).filter((s): s is Exclude<Scope, { kind: 'workload' }> => s !== null);
  const paths = loadTestPaths(req.workloads);
  const notes: MissingEvidence[] = [];
  const inferred = req.inferred;
  const extra =
    inferred === undefined ? [] : scopes.flatMap((s) => inferredQueries(s, inferred.get(`${s.kind}:${s.name}`) ?? [], { windowMinutes }));
  const [evidence, loadTests, allocation] = await Promise.all([
    // A breaker per review: a source down for this review costs one query's retries, not every query's.
    gatherEvidence(withCircuitBreaker(input.source), {
      workloads: req.workloads,
      scopes,
      at: input.at,
      windowMinutes,
      rateWindowMinutes: input.rateWindowMinutes ?? DEFAULT_RATE_WINDOW_MINUTES,
      extra,
    }),
    Promise.all(paths.map(async (p) => [p, await readLoadTestFrom(req.repo, p, req.base, notes)] as const)),
    input.allocation ? input.allocation({ at: input.at, windowMinutes, aggregate: 'namespace' }) : Promise.resolve(null),
  ]);
  const missing = [...evidence.missing, ...notes];
  for (const [path, imported] of loadTests) {
    if (!imported.ok)
      missing.push({
        what: `load test ${path}`,
        how: `${imported.error}; save a GuideLLM report or \`vllm bench serve --save-result\` output there`,
      });
  }
  if (allocation?.status === 'missing') {
    missing.push({
      what: `GPU cost from OpenCost: ${allocation.message}`,
      how: 'check OPENCOST_URL and that OpenCost reaches the cluster; the catalog prices are used meanwhile',
    });
  }
  return {
    source: input.source.description,
    at: input.at.toISOString(),
    windowMinutes,
    evidence,
    loadTests: new Map(loadTests),
    allocation,
    missing,
    loadTestNotes: notes,
  };
}

async function readLoadTestFrom(
  repo: TreeReader,
  path: string,
  base: TreeReader | undefined,
  notes: MissingEvidence[],
): Promise<LoadTestImport> {
  const text = await readOrWhy(repo, path);
  const before = base === undefined ? text : await readOrWhy(base, path);
  // A load test that is no file of the repository (a link leading out, a submodule) measures nothing.
  if (text instanceof UnreadablePathError) return fail(text.message);
  if (before instanceof UnreadablePathError) return fail(before.message);
  if (text === before) return text === null ? fail(`${path} is not in the repository`) : importLoadTest(text, path);
  if (before === null) {
    return fail(`${path} is added by this pull request, and a load test the pull request writes counts once it is merged`);
  }
  notes.push({
    what: `load test ${path} as this pull request changes it`,
    how: "a load test the pull request writes counts once it is merged; the base branch's is used until then",
  });
  return importLoadTest(before, path);
}
