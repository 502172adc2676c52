/**
 * Reviews of a repository with no workload catalog (or a catalog that leaves a runtime unknown) on
 * a real Prometheus holding no-catalog-cluster.ts: demand observed, workloads inferred from the
 * manifests and kube-state-metrics. no-catalog-snapshot.e2e.test.ts records and replays them.
 */
import { describe, expect, it } from 'vitest';
import type { ReviewResult } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { renderComment } from '../../src/report/comment.js';
import { reviewJson } from '../../src/report/json.js';
import { missingWords } from '../../src/report/missing-words.js';
import { reviewReason } from '../../src/report/reasons.js';
import { runReview } from '../../src/review/index.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { clusterQueue, karpenterPool } from './capacity-files.js';
import { changeSet, MANIFESTS, noCatalogCluster, only, POOL, reviewOn } from './no-catalog-cluster.js';
import { twoDaysPerFile, TWO_DAYS_MINUTES } from './two-days.js';

const live = twoDaysPerFile(noCatalogCluster);
const review = (path: string, before: string, after: string) => reviewOn(live.started, path, before, after);

describe('a review with no workload catalog, on a real Prometheus', () => {
  it('shows the request not needed when reclaiming the idle notebook covers it', async () => {
    const result = await review('pools/a100.yaml', karpenterPool(POOL, 'p4de.24xlarge', 8), karpenterPool(POOL, 'p4de.24xlarge', 12));
    const r = only(result);
    // Observed peak 6 (+20% → 8) fills the 8 there; without the notebook's 4 it is 2 (→ 3), leaving 5 for the 4 asked.
    expect(r).toMatchObject({ verdict: 'not-justified', gpusNeeded: 0, need: 3, needWithoutLevers: 8, confidence: 'inferred' });
    expect(r.demand).toMatchObject({ scope: 'pool', peakHeld: 6, peakDemand: 6, peakPending: null });
    expect(r.demand!.gpuHoursPerDay).toBeCloseTo(6 * 24, 0);
    expect(r.idlePods?.map((p) => `${p.namespace}/${p.pod}`)).toEqual(['research/notebook-0']);
    expect(r.findings.find((f) => f.lever === 'reclaim-idle')).toMatchObject({ gpusFreed: 4, meetsNeed: true });
    expect(result.verdict).toBe('not-justified');
    expect(reviewReason(r)).toBe(
      'the 8 GPUs already there hold the observed peak (6 GPUs, 2 without the idle pods; 3 with headroom) and the 4 asked with reclaim-idle',
    );
    // Still listed: the catalog that would make the review precise.
    expect(r.missingEvidence.map((m) => missingWords(m).what)).toContain('a workload catalog (gpu-workloads.yaml)');
    const comment = renderComment(result);
    expect(comment).toContain('Observed GPU demand on a100-pool');
    expect(comment).toContain('`gpu-justify init`');
  });

  it('shows the request not needed when quota the cohort leaves unused covers it', async () => {
    const r = only(await review('queues/team-a.yaml', clusterQueue('team-a', 8, 'research'), clusterQueue('team-a', 12, 'research')));
    // Observed peak 8 (+20% → 10) over the 8 there: -2, plus team-b's 14 unused covers the 4 asked.
    expect(r).toMatchObject({ verdict: 'not-justified', gpusNeeded: 0, need: 10, confidence: 'inferred' });
    expect(r.demand).toMatchObject({ scope: 'queue', peakHeld: 8, peakDemand: 8 });
    expect(r.findings.find((f) => f.lever === 'borrow-quota')).toMatchObject({ gpusFreed: 14, meetsNeed: true });
    expect(reviewReason(r)).toContain('14 borrowable');
    expect(reviewReason(r)).toContain('observed peak (8 GPUs; 10 with headroom)');
  });

  it('counts a CronJob seen in the repository and in kube-state-metrics once, each field with its origin', async () => {
    const end = live.started.at;
    const result = await review('queues/batch.yaml', clusterQueue('batch-q', 8, null), clusterQueue('batch-q', 16, null));
    const r = only(result);
    expect(r.inferred?.map((w) => [w.name, w.runsObserved])).toEqual([
      ['embed', 2],
      ['nightly', 2],
    ]);
    const nightly = r.inferred!.find((w) => w.name === 'nightly')!;
    // The pod template of its GPUs, and the CronJob's schedule line.
    expect(nightly.gpus).toEqual({ value: 8, origin: { source: 'manifest', ref: 'jobs/nightly.yaml:13' } });
    expect(nightly.earliestStartUtc).toEqual({ value: 60, origin: { source: 'manifest', ref: 'jobs/nightly.yaml:7' } });
    expect(nightly.runtimeMinutes.value).toBe(120);
    expect(nightly.runtimeMinutes.origin).toMatchObject({ source: 'telemetry', window: `${TWO_DAYS_MINUTES}m to ${end.toISOString()}` });
    expect(nightly.runtimeMinutes.origin!.ref).toContain('kube_job_status_completion_time');
    expect(nightly.deadlineUtc).toEqual({ value: null, origin: null });
    const json = reviewJson(result).reviews[0]!;
    expect(json.inferredWorkloads?.map((w) => w.name)).toEqual(['embed', 'nightly']);
  });

  it('gives a batch queue with no deadline anywhere no verdict, and what each deadline would need', async () => {
    const result = await review('queues/batch.yaml', clusterQueue('batch-q', 8, null), clusterQueue('batch-q', 16, null));
    const r = only(result);
    // 8 admitted and 4 pending at 01:00–03:00: a peak demand of 12, more than the 8 there.
    expect(r.demand).toMatchObject({ peakHeld: 8, peakPending: 4, peakDemand: 12 });
    expect(r).toMatchObject({ verdict: 'insufficient-evidence', gpusNeeded: null });
    // Both from 01:00: done by 03:00 needs them side by side (12); by 04:00 one after the other (8).
    expect(r.deadlines).toEqual({
      workloads: ['embed', 'nightly'],
      rungs: [
        { deadlineUtc: 180, gpus: 12 },
        { deadlineUtc: 240, gpus: 8 },
      ],
      capacity: 8,
      capacityDoneBy: 240,
    });
    expect(r.missingEvidence.map((m) => missingWords(m).what)).toEqual(
      expect.arrayContaining(['a deadline for nightly', 'a deadline for embed']),
    );
    const comment = renderComment(result);
    expect(comment).toContain('done by 03:00: 12 GPUs; by 04:00: 8 GPUs; the 8 there today finish by 04:00');
  });

  it('reads a run from its pods when kube-state-metrics exports no Job series', async () => {
    const r = only(await review('queues/ml.yaml', clusterQueue('ml-q', 4, null), clusterQueue('ml-q', 8, null)));
    const train = r.inferred?.find((w) => w.name === 'train');
    // First pod at 02:00, both done at 02:45; the pods' Job name carries the CronJob's.
    expect(train).toMatchObject({ runsObserved: 2, runtimeMinutes: { value: 45 }, earliestStartUtc: { value: 120 } });
    expect(train!.runtimeMinutes.origin!.ref).toContain('kube_pod_completion_time');
  });
});

/** A catalog that leaves nightly's runtime and start to the review: only its deadline is the team's. */
const CATALOG = [
  'workloads:',
  '  - name: nightly',
  '    type: batch',
  '    queue: batch-q',
  '    gpusPerJob: 8',
  '    runtime: unknown',
  '    window:',
  '      earliestStart: unknown',
  '      deadline: "06:00"',
  '    selector: {namespace: etl}',
  '  - name: embed',
  '    type: batch',
  '    queue: batch-q',
  '    gpusPerJob: 4',
  '    runtime: 1h',
  '    window:',
  '      earliestStart: "01:00"',
  '      deadline: "06:00"',
  '    selector: {namespace: etl}',
  '',
].join('\n');

describe('a catalog entry that leaves its runtime unknown, on a real Prometheus', () => {
  async function withCatalog(telemetry: boolean): Promise<ReviewResult> {
    const files = { ...MANIFESTS, 'gpu-workloads.yaml': CATALOG };
    const { prom, at: end } = live.started;
    const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }));
    return runReview({
      changes: changeSet(
        { ...files, 'queues/batch.yaml': clusterQueue('batch-q', 8, null) },
        { ...files, 'queues/batch.yaml': clusterQueue('batch-q', 16, null) },
      ),
      policy: { policy: { ...DEFAULT_POLICY, window: TWO_DAYS_MINUTES }, diagnostics: [], file: null },
      ...(telemetry ? { telemetry: { source, at: end } } : {}),
    });
  }

  it('takes it from the observed Job runs, and the verdict rests on the plan instead of a missing entry', async () => {
    const end = live.started.at;
    // From the files alone no run is seen: nightly stays out of the need and nothing can be judged.
    const files = only(await withCatalog(false));
    expect(files).toMatchObject({ verdict: 'insufficient-evidence', gpusNeeded: null });
    expect(reviewReason(files)).toContain('nightly cannot be planned from the catalog');

    const result = await withCatalog(true);
    const r = only(result);
    // nightly: 8 GPUs for 2 h from 01:00 (its CronJob's schedule), embed after it: a peak of 8, 10 with headroom.
    expect(r).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 2, need: 10, confidence: 'inferred' });
    expect(r.workloads).toEqual(['embed', 'nightly']);
    const nightly = r.inferred!.find((w) => w.name === 'nightly')!;
    expect(nightly.runtimeMinutes.value).toBe(120);
    expect(nightly.runtimeMinutes.origin).toMatchObject({ source: 'telemetry', window: `${TWO_DAYS_MINUTES}m to ${end.toISOString()}` });
    expect(nightly.runtimeMinutes.origin!.ref).toContain('kube_job_status_completion_time');
    expect(nightly.earliestStartUtc).toEqual({ value: 60, origin: { source: 'manifest', ref: 'jobs/nightly.yaml:7' } });
    expect(nightly.deadlineUtc).toEqual({ value: 360, origin: { source: 'catalog', ref: 'gpu-workloads.yaml:2' } });
    // The warning that kept it out becomes a note of what was taken.
    expect(result.diagnostics.filter((d) => d.file === 'gpu-workloads.yaml').map((d) => [d.severity, d.message])).toEqual([
      ['info', expect.stringMatching(/^workloads\[0\]\.runtime: "unknown": taken as 2h from the runs telemetry observed over/)],
      ['info', 'workloads[0].window.earliestStart: "unknown": taken as "01:00" from jobs/nightly.yaml:7; write it to confirm it'],
    ]);
    const comment = renderComment(result);
    expect(comment).toContain('To confirm in a catalog for batch-q (1)');
    expect(comment).toContain('inferred:** what the catalog leaves `unknown` is taken from');
  });
});
