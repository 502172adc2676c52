/**
 * What the judgement tests share: a review of a PR held in memory against the Prometheus of the
 * judgement cluster (judgement-cluster.ts) or any telemetry given, and the catalog entries and
 * Kueue files the scenarios are written in.
 */
import { expect } from 'vitest';
import type { ChangeReview, Policy, ReviewResult } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { runReview } from '../../src/review/index.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import type { TelemetrySource } from '../../src/telemetry/source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { memoryChangeSet, type Tree } from '../memory-change-set.js';
import { judgementCluster } from './judgement-cluster.js';
import { twoDaysPerFile, type TwoDaysPerFile, TWO_DAYS_MINUTES } from './two-days.js';

const WINDOW = TWO_DAYS_MINUTES;

/** A review of base → head: from the judgement cluster shifted `shift` hours (null: the files alone). */
export type JudgementReview = (
  base: Tree,
  head: Tree,
  catalog: string,
  over?: Partial<Policy>,
  shift?: number | null,
) => Promise<ReviewResult>;

/**
 * The judgement cluster's Prometheus servers for the calling test file (one per shift of the
 * scenario hours, started once; call at the file's top level) and the review against them.
 */
export function judgementPerFile(): { cluster: TwoDaysPerFile; review: JudgementReview } {
  const cluster = twoDaysPerFile(judgementCluster);
  const review: JudgementReview = async (base, head, catalog, over = {}, shift = 0) => {
    if (shift === null) return reviewWith(null, base, head, catalog, over);
    const { prom, at } = await cluster.shifted(shift);
    const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }), { minStepSeconds: 300 });
    return reviewWith({ source, at }, base, head, catalog, over);
  };
  return { cluster, review };
}

/** The review of base → head with the catalog given, from the telemetry given (none: the files alone). */
export function reviewWith(
  telemetry: { source: TelemetrySource; at: Date } | null,
  base: Tree,
  head: Tree,
  catalog: string,
  over: Partial<Policy> = {},
): Promise<ReviewResult> {
  const common = { 'gpu-workloads.yaml': `workloads:\n${catalog}` };
  return runReview({
    changes: memoryChangeSet({ ...common, ...base }, { ...common, ...head }),
    policy: { policy: { ...DEFAULT_POLICY, window: WINDOW, ...over }, diagnostics: [], file: null },
    ...(telemetry === null ? {} : { telemetry }),
  });
}

export const only = (r: ReviewResult): ChangeReview => {
  expect(r.reviews).toHaveLength(1);
  return r.reviews[0]!;
};
export const byName = (r: ReviewResult, name: string): ChangeReview => r.reviews.find((x) => x.change.name === name)!;
export const lever = (r: ChangeReview, l: string) => r.findings.find((f) => f.lever === l);
const clock = (h: number) => `"${String(((h % 24) + 24) % 24).padStart(2, '0')}:00"`;

/** A v1beta2 ClusterQueue of one GPU flavor, with the limits given. */
export function queue(
  name: string,
  gpus: number,
  cohort: string | null,
  limits: { lendingLimit?: number; borrowingLimit?: number } = {},
): string {
  return [
    'apiVersion: kueue.x-k8s.io/v1beta2',
    'kind: ClusterQueue',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    ...(cohort === null ? [] : [`  cohortName: ${cohort}`]),
    '  resourceGroups:',
    '  - coveredResources: ["nvidia.com/gpu"]',
    '    flavors:',
    '    - name: a100',
    '      resources:',
    '      - name: "nvidia.com/gpu"',
    `        nominalQuota: ${gpus}`,
    ...(limits.lendingLimit === undefined ? [] : [`        lendingLimit: ${limits.lendingLimit}`]),
    ...(limits.borrowingLimit === undefined ? [] : [`        borrowingLimit: ${limits.borrowingLimit}`]),
    '',
  ].join('\n');
}
export const file = (...docs: string[]) => docs.join('---\n');

/** A batch job of `gpus` GPUs, `hours` long, once a day in the window [from, to) hours (shifted). */
export function job(
  name: string,
  link: string,
  gpus: number,
  hours: number,
  from: number,
  to: number,
  shift: number,
  extra: string[] = [],
): string {
  return [
    `  - name: ${name}`,
    '    type: batch',
    `    ${link}`,
    `    gpusPerJob: ${gpus}`,
    `    runtime: ${hours}h`,
    ...extra,
    `    window: { earliestStart: ${clock(from + shift)}, deadline: ${clock(to + shift)} }`,
  ].join('\n');
}
