import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReview, Policy, ReviewResult } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { renderComment } from '../../src/report/comment.js';
import { runReview } from '../../src/review/index.js';
import type { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { CHAT, EVAL, KUEUE, POOLS, TRAIN } from '../helpers/prometheus/index.js';
import type { SimulatedPrometheus } from '../helpers/prometheus/index.js';
import { memoryChangeSet, type Tree } from '../memory-change-set.js';
import { clusterQueue, l4Pool } from './capacity-files.js';
import { startTwoDays, TWO_DAYS_MINUTES } from './two-days.js';
import { findingText, servingAdvice } from '../../src/report/findings.js';
import { missingWords } from '../../src/report/missing-words.js';

let prom: SimulatedPrometheus;
let source: PrometheusSource;
let at: Date;
const WINDOW = TWO_DAYS_MINUTES;

beforeAll(async () => {
  ({ prom, source, at } = await startTwoDays());
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

const chatLoadTest = readFileSync(new URL('../../fixtures/loadtests/guidellm-chat-l4.json', import.meta.url), 'utf8');
/** A smaller model on the same L4s: one replica carries 9.5 req/s within the SLO. */
const altLoadTest = [
  { request_rate: 5, request_throughput: 4.9, completed: 1000, failed: 0, p95_e2el_ms: 900, p95_ttft_ms: 60 },
  { request_rate: 10, request_throughput: 9.5, completed: 1000, failed: 2, p95_e2el_ms: 1500, p95_ttft_ms: 120 },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

const evalJob = (runtime: string) => `
  - name: nightly-eval
    type: batch
    queue: research
    gpusPerJob: 2
    jobsPerDay: 2
    runtime: ${runtime}
    window: { earliestStart: "00:00", deadline: "06:00" }
    selector: { namespace: ${EVAL.namespace} }
    outcomes:
      verified: sum(increase(eval_runs_total{namespace="eval",result="pass"}[2d]))`;

const trainJobs = `
  - name: train
    type: training
    queue: training
    gpusPerJob: ${TRAIN.gpus}
    runtime: 1d
    window: { earliestStart: "00:00", deadline: "00:00" }
    selector: { namespace: ${TRAIN.namespace} }
  - name: finetune
    type: batch
    queue: training
    gpusPerJob: 4
    runtime: 2h
    window: { earliestStart: "08:00", deadline: "12:00" }`;

function chatService(opts: { p95?: number; headroom?: number; loadTest?: boolean; alternatives?: boolean } = {}): string {
  const lines = [
    '  - name: support-chat',
    '    type: inference',
    `    pool: ${POOLS.l4.name}`,
    `    model: ${CHAT.model}`,
    '    gpusPerReplica: 1',
    '    replicas: 4',
    `    slo: { p95LatencyMs: ${opts.p95 ?? 2000}, ttftP95Ms: 500, errorRate: 0.01 }`,
    `    selector: { namespace: ${CHAT.namespace} }`,
    '    outcomes:',
    '      verified: sum(increase(vllm:request_success_total{namespace="chat",finished_reason="stop"}[2d]))',
    '      total: sum(increase(vllm:request_success_total{namespace="chat"}[2d]))',
    '    quality: 0.9',
    '    qualityThreshold: 0.85',
  ];
  if (opts.headroom !== undefined) lines.push(`    headroom: ${opts.headroom}`);
  if (opts.loadTest !== false) lines.push('    loadTest: loadtests/chat-l4.json');
  if (opts.alternatives) {
    lines.push(
      '    alternatives:',
      '      - name: chat-3b',
      '        model: llama-3.2-3b-instruct',
      '        gpusPerReplica: 1',
      '        quality: 0.88',
      '        loadTest: loadtests/chat-3b.jsonl',
    );
  }
  return lines.join('\n');
}

const files = { 'loadtests/chat-l4.json': chatLoadTest, 'loadtests/chat-3b.jsonl': altLoadTest };

async function review(base: Tree, head: Tree, catalog: string, over: Partial<Policy> = {}, telemetry = true): Promise<ReviewResult> {
  const common = { 'gpu-workloads.yaml': `workloads:${catalog}\n`, ...files };
  return runReview({
    changes: memoryChangeSet({ ...common, ...base }, { ...common, ...head }),
    policy: { policy: { ...DEFAULT_POLICY, window: WINDOW, ...over }, diagnostics: [], file: null },
    ...(telemetry ? { telemetry: { source, at } } : {}),
  });
}

const only = (r: ReviewResult): ChangeReview => {
  expect(r.reviews).toHaveLength(1);
  return r.reviews[0]!;
};
const lever = (r: ChangeReview, l: string) => r.findings.find((f) => f.lever === l);

const queues = (research: number, cohort: string | null = KUEUE.cohort) => ({
  'clusters/queues.yaml': `${clusterQueue('research', research, cohort)}---\n${clusterQueue('training', 4, cohort)}`,
});

describe('a review on a real Prometheus', () => {
  it('borrows unused cohort quota, cross-checks runtimes and climbs the ladder (research queue)', async () => {
    const r = only(await review(queues(4), queues(8), evalJob('4h')));
    // Observed: 4 GPUs for 6 h a day over two jobs of 2 GPUs → 6 h per run, not the 4 h documented.
    const check = r.runtimes?.find((c) => c.workload === 'nightly-eval');
    expect(check?.observedMinutes).toBeGreaterThan(355);
    expect(check?.observedMinutes).toBeLessThan(366);
    expect(check?.differs).toBe(true);
    expect(lever(r, 'stagger')?.detail.code).toBe('stagger');
    expect(r.findings.some((f) => findingText(f).startsWith('Runtime off by more than 25%'))).toBe(true);
    // Staggered peak 4 (both runs fill the window), +20% → 5; 4 there; training leaves 4 − 2 = 2 unused.
    expect(r.need).toBe(5);
    expect(lever(r, 'borrow-quota')).toMatchObject({ gpusFreed: KUEUE.queues.training.nominal - TRAIN.gpus, meetsNeed: true });
    expect(r).toMatchObject({ verdict: 'not-justified', gpusNeeded: 0 });
    // Ladder of the workload: busy 80%, SM active 60%, 3 passes a day.
    const w = r.ladders?.find((l) => l.scope === 'workload' && l.name === 'nightly-eval');
    expect(w?.busyFraction).toBeCloseTo(EVAL.util / 100, 2);
    expect(w?.computeField).toBe('DCGM_FI_PROF_SM_ACTIVE');
    expect((w?.computingGpuHours ?? 0) / (w?.allocatedGpuHours ?? 1)).toBeCloseTo(EVAL.smActive, 2);
    expect(w?.verifiedOutcomes).toBe(2 * EVAL.passPerDay);
    const q = r.ladders?.find((l) => l.scope === 'queue');
    expect(q?.allocatedGpuHours).toBeGreaterThan(2 * 6 * EVAL.gpus - 1);
    expect(q?.allocatedGpuHours).toBeLessThan(2 * 6 * EVAL.gpus + 1);
    for (const l of r.ladders ?? [])
      expect(l.evidence.every((e) => e.source === 'prometheus' && e.window?.startsWith(`${WINDOW}m`))).toBe(true);
  });

  it('without a cohort the same change is partially justified; without telemetry it plans from the catalog alone', async () => {
    const noCohort = only(await review(queues(4, null), queues(8, null), evalJob('4h')));
    expect(noCohort).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 1 });
    expect(lever(noCohort, 'borrow-quota')).toBeUndefined();
    const offline = await review(queues(4), queues(8), evalJob('4h'), {}, false);
    expect(offline).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 1, missingEvidence: [] });
    expect(only(offline).ladders).toBeUndefined();
    expect(only(offline).confidence).toBe('low');
  });

  it('sizes a service from its load test and peak, and says the limit is batching (l4 pool)', async () => {
    const r = only(await review({ 'pools/l4.yaml': l4Pool(4) }, { 'pools/l4.yaml': l4Pool(8) }, `\n${chatService()}`));
    const s = r.serving?.[0];
    // 4 replicas × 1 req/s each; one replica meets the SLO up to 4.44 req/s (constant at 4.5/s).
    expect(s?.peakRate).toBeCloseTo(CHAT.pods.length * Object.values(CHAT.finished).reduce((a, b) => a + b, 0), 3);
    expect(s).toMatchObject({
      sustainableRatePerReplica: 4.44,
      loadTestStep: 'constant at 4.5/s',
      replicasNeeded: 2,
      gpusNeeded: 2,
      limit: 'batching',
    });
    expect(servingAdvice(s!)).toContain('--max-num-seqs');
    expect(lever(r, 'batching')).toMatchObject({ gpusFreed: 2, meetsNeed: true });
    expect(r).toMatchObject({ verdict: 'not-justified', gpusNeeded: 0, need: 2, confidence: 'high' });
    expect(lever(r, 'batching')?.evidence.map((e) => e.source)).toEqual(expect.arrayContaining(['load-test', 'prometheus']));
  });

  it('prefers a cheaper model that meets quality and the SLO, with cost per verified outcome', async () => {
    const r = only(
      await review({ 'pools/l4.yaml': l4Pool(4) }, { 'pools/l4.yaml': l4Pool(8) }, `\n${chatService({ alternatives: true })}`),
    );
    const current = r.costs?.find((c) => c.option === 'current');
    const alt = r.costs?.find((c) => c.option === 'chat-3b');
    const hours = WINDOW / 60;
    const price = 0.85; // L4 list price per GPU-hour
    expect(current?.usdOverWindow).toBeCloseTo(CHAT.pods.length * hours * price, 0);
    expect(current?.verifiedOutcomes).toBeCloseTo(CHAT.pods.length * CHAT.finished.stop * hours * 3600, -2);
    // ceil(4 × 1.2 / 9.5) = 1 replica; its outcomes: all requests × quality 0.88.
    expect(alt).toMatchObject({ gpus: 1, qualifies: true });
    expect(alt?.usdPerVerifiedOutcome).toBeLessThan(current?.usdPerVerifiedOutcome ?? 0);
    expect(lever(r, 'cheaper-model')).toMatchObject({ gpusFreed: 3, meetsNeed: true });
    expect(r).toMatchObject({ verdict: 'not-justified', need: 1 });
  });

  it('justifies the pool when a tight SLO leaves one replica 0.61 req/s, and partly so without headroom', async () => {
    const tight = only(await review({ 'pools/l4.yaml': l4Pool(4) }, { 'pools/l4.yaml': l4Pool(8) }, `\n${chatService({ p95: 1500 })}`));
    // ceil(4 × 1.2 / 0.61) = 8 replicas.
    expect(tight.serving?.[0]).toMatchObject({ sustainableRatePerReplica: 0.61, replicasNeeded: 8 });
    expect(tight).toMatchObject({ verdict: 'justified', gpusNeeded: 4 });
    const partly = only(
      await review({ 'pools/l4.yaml': l4Pool(4) }, { 'pools/l4.yaml': l4Pool(8) }, `\n${chatService({ p95: 1500, headroom: 0 })}`),
    );
    // ceil(4 / 0.61) = 7.
    expect(partly).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 3, need: 7 });
  });

  it('never trusts a verdict more with less evidence: no load test counts the declared replicas', async () => {
    const r = only(await review({ 'pools/l4.yaml': l4Pool(4) }, { 'pools/l4.yaml': l4Pool(8) }, `\n${chatService({ loadTest: false })}`));
    expect(r).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 1, need: 5, confidence: 'medium' });
    expect(r.missingEvidence.map((m) => missingWords(m).what)).toEqual(['a load test of support-chat']);
  });

  it('reclaims an idle training allocation and flags it memory-bound (training queue)', async () => {
    const trainingQueue = (gpus: number) => ({
      'clusters/queues.yaml': `${clusterQueue('research', 4, KUEUE.cohort)}---\n${clusterQueue('training', gpus, KUEUE.cohort)}`,
    });
    const strict = only(await review(trainingQueue(4), trainingQueue(6), trainJobs, { idleBelow: 0.35 }));
    const train = strict.ladders?.find((l) => l.name === 'train');
    expect(train?.busyFraction).toBeCloseTo(TRAIN.util / 100, 2);
    expect(train?.flags.map((f) => f.kind).sort()).toEqual(['idle', 'memory-bound']);
    // Without train the peak is finetune's 4 GPUs (08:00–12:00): +20% → 5, one more than the 4 there,
    // at those hours only. research (nominal 4, no lendingLimit in queues.yaml) admits 4 at 00:00–06:00
    // and nothing after: it leaves 4 free at 08:00–12:00. Reclaiming alone leaves 1 short; borrowing
    // alone covers even train and finetune together (8 at 08:00–12:00, 4 short): the one lever needed.
    expect(lever(strict, 'reclaim-idle')).toMatchObject({ gpusFreed: TRAIN.gpus, meetsNeed: false });
    expect(lever(strict, 'borrow-quota')).toMatchObject({ gpusFreed: 4, meetsNeed: true });
    expect(strict).toMatchObject({ verdict: 'not-justified', gpusNeeded: 0, need: 5 });
    expect(strict.combination).toEqual({ levers: ['borrow-quota'], meetsNeed: true });
    const lenient = only(await review(trainingQueue(4), trainingQueue(6), trainJobs));
    // train and finetune overlap at 08:00–12:00: 6 GPUs, +20% → 8, 4 short then; research leaves
    // exactly 4 free at those hours (it lends nothing at 00:00–06:00, when training needs only 3).
    expect(lever(lenient, 'reclaim-idle')).toBeUndefined();
    expect(lever(lenient, 'borrow-quota')).toMatchObject({ gpusFreed: 4, meetsNeed: true });
    expect(lenient).toMatchObject({ verdict: 'not-justified', gpusNeeded: 0, need: 8 });
    expect(lenient.runtimes?.find((c) => c.workload === 'train')?.differs).toBe(false);
  });

  it('plans a catalog with a weekend job on a weekly cycle, with the same telemetry evidence (research queue)', async () => {
    const weekend = `
  - name: weekend-finetune
    type: training
    queue: research
    gpusPerJob: 4
    runtime: 3h
    days: [sat]
    window: { earliestStart: "08:00", deadline: "12:00" }`;
    const r = only(await review(queues(4), queues(8), `${evalJob('6h')}${weekend}`));
    expect(r.plan).toMatchObject({ cycle: 7 * 1440, peakGpus: 4, lowerBound: 4, optimal: true });
    // The eval job still runs every day of the week: its runs are timed as before.
    const check = r.runtimes?.find((c) => c.workload === 'nightly-eval');
    expect(check?.observedMinutes).toBeGreaterThan(355);
    expect(check?.observedMinutes).toBeLessThan(366);
    expect(check?.differs).toBe(false);
    expect(r.plan?.schedule.filter((run) => run.workload === 'nightly-eval')).toHaveLength(14);
    expect(r).toMatchObject({ need: 5, verdict: 'not-justified', gpusNeeded: 0 });
    const comment = renderComment(await review(queues(4), queues(8), `${evalJob('6h')}${weekend}`));
    expect(comment).toContain('The plan repeats every week from Monday 00:00 UTC.');
    expect(comment).toMatch(/`schedule: "0 (8|9) \* \* 6"`/);
  });

  it('says which evidence is missing when the catalog links nothing to the change', async () => {
    const r = await review({ 'pools/l4.yaml': l4Pool(4) }, { 'pools/l4.yaml': l4Pool(8) }, trainJobs);
    expect(r).toMatchObject({ verdict: 'insufficient-evidence', gpusNeeded: null });
    expect(missingWords(r.missingEvidence[0]!).how).toContain(`pool: ${POOLS.l4.name}`);
  });
});
