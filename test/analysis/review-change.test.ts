import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../src/analysis/review-change.js';
import { judgePr } from '../../src/analysis/review-pr.js';
import { batch, policy, queueChange, service } from '../factories.js';
import { answer, hourly, missing, repeat, telemetry } from './measured-fixture.js';
import { reviewReason } from '../../src/report/reasons.js';
import { missingWords } from '../../src/report/missing-words.js';

// The mission's example: four 2-GPU, 2-hour jobs in a six-hour window fit on four GPUs in pairs.
const fourPairs = batch({ name: 'nightly-eval', jobsPerDay: 4 });

describe('reviewChange', () => {
  it('finds an increase not justified when staggering fits the capacity before', () => {
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [fourPairs],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect(r.verdict).toBe('not-justified');
    expect(r.need).toBe(4);
    expect(r.gpusNeeded).toBe(0);
    expect(r.plan?.naivePeakGpus).toBe(8);
    // From the files alone the plan is exact but its runtimes are not measured: no surer than the review.
    expect(r.findings).toEqual([expect.objectContaining({ lever: 'stagger', gpusFreed: 4, meetsNeed: true, confidence: 'low' })]);
    expect(r.combination).toEqual({ levers: ['stagger'], meetsNeed: true });
    expect(r.evidence.map((e) => e.ref)).toContain('gpu-workloads.yaml:' + fourPairs.source.line);
  });

  it('counts the policy headroom as a need', () => {
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [fourPairs],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0.2 }),
    });
    // 4 GPUs at the staggered peak + 20% = 4.8, so 5: one more than the 4 already there.
    expect(r.verdict).toBe('partially-justified');
    expect(r.need).toBe(5);
    expect(r.gpusNeeded).toBe(1);
    expect(r.findings[0]).toMatchObject({ lever: 'stagger', meetsNeed: false });
  });

  it('justifies an increase that no schedule can avoid, with the bound as proof', () => {
    // Two 4-GPU jobs that both take their whole window must overlap: 8 GPUs.
    const tight = batch({ name: 'tight', gpusPerJob: 4, runtime: 360, jobsPerDay: 2 });
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [tight],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect(r.verdict).toBe('justified');
    expect(r.gpusNeeded).toBe(4);
    expect(r.plan?.lowerBound).toBe(8);
    expect(reviewReason(r)).toMatch(/no schedule meets every deadline with fewer GPUs/);
  });

  it('plans weekday jobs on a weekly cycle: runs on different days do not stack', () => {
    // The same two whole-window 4-GPU runs, one on Saturdays and one on Sundays, never meet.
    const saturday = batch({ name: 'sat-train', gpusPerJob: 4, runtime: 360, days: ['sat'] });
    const sunday = batch({ name: 'sun-train', gpusPerJob: 4, runtime: 360, days: ['sun'] });
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [saturday, sunday],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect(r.plan).toMatchObject({ cycle: 7 * 1440, peakGpus: 4, lowerBound: 4 });
    expect(r.verdict).toBe('not-justified');
    expect(r.gpusNeeded).toBe(0);
  });

  it('adds services at their declared size on top of the jobs', () => {
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [fourPairs, service({ name: 'chat', replicas: 2 })],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect(r.need).toBe(6);
    expect(r.verdict).toBe('partially-justified');
    expect(r.gpusNeeded).toBe(2);
    expect(r.missingEvidence.map((m) => missingWords(m).what)).toEqual(['measured capacity of chat']);
  });

  it('says which evidence is missing when no workload runs in the queue', () => {
    const r = reviewChange({
      change: queueChange('other', 4, 8),
      workloads: [fourPairs],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy(),
    });
    expect(r.verdict).toBe('insufficient-evidence');
    expect(r.gpusNeeded).toBeNull();
    expect(missingWords(r.missingEvidence[0]!).how).toContain('queue: other');
  });

  it('says the catalog is missing when there is none', () => {
    const r = reviewChange({ change: queueChange('research', 4, 8), workloads: null, catalogFile: 'gpu-workloads.yaml', policy: policy() });
    expect(r.verdict).toBe('insufficient-evidence');
    expect(missingWords(r.missingEvidence[0]!).what).toContain('gpu-workloads.yaml');
  });

  it('treats GPU sharing as no request for hardware', () => {
    const change = queueChange('time-slicing-config/any', 1, 4, { kind: 'gpu-sharing' });
    const r = reviewChange({ change, workloads: [fourPairs], catalogFile: 'gpu-workloads.yaml', policy: policy() });
    expect(r).toMatchObject({ verdict: 'justified', gpusNeeded: 0 });
    expect(reviewReason(r)).toContain('no new hardware');
    expect(judgePr([change], [r])).toEqual({ verdict: 'justified', gpusRequested: 0, gpusNeeded: 0 });
  });

  it('warns when a decrease drops below the need', () => {
    const r = reviewChange({
      change: queueChange('research', 8, 2),
      workloads: [fourPairs],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect(r.verdict).toBe('justified');
    expect(reviewReason(r)).toMatch(/below the need/);
  });
});

describe('judgePr', () => {
  const review = (verdict: 'not-justified' | 'justified', delta: number, gpusNeeded: number | null) => ({
    ...reviewChange({
      change: queueChange('research', 4, 4 + delta),
      workloads: [fourPairs],
      catalogFile: 'c',
      policy: policy({ headroom: 0 }),
    }),
    verdict,
    gpusNeeded,
  });

  it.each([
    { name: 'no change', reviews: [], verdict: 'no-gpu-change', requested: 0, needed: 0 },
    { name: 'all avoidable', reviews: [review('not-justified', 4, 0)], verdict: 'not-justified', requested: 4, needed: 0 },
    {
      name: 'some needed',
      reviews: [review('not-justified', 4, 0), review('justified', 2, 2)],
      verdict: 'partially-justified',
      requested: 6,
      needed: 2,
    },
    { name: 'all needed', reviews: [review('justified', 2, 2)], verdict: 'justified', requested: 2, needed: 2 },
    {
      name: 'unknown',
      reviews: [review('justified', 2, 2), review('justified', 2, null)],
      verdict: 'insufficient-evidence',
      requested: 4,
      needed: null,
    },
    { name: 'only a decrease', reviews: [review('justified', -2, 0)], verdict: 'justified', requested: 0, needed: 0 },
  ])('$name', ({ reviews, verdict, requested, needed }) => {
    const pr = judgePr(
      reviews.map((r) => r.change),
      reviews,
    );
    expect(pr).toEqual({ verdict, gpusRequested: requested, gpusNeeded: needed });
  });
});

describe('reviewChange with telemetry', () => {
  it('will not find fewer GPUs needed when a documented job cannot be planned', () => {
    // 8 hours of work in a 6-hour window: left out of the plan, so the need is a floor only.
    const tooLong = batch({ name: 'too-long', runtime: 480 });
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [fourPairs, tooLong],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    });
    expect(r).toMatchObject({ verdict: 'insufficient-evidence', gpusNeeded: null });
    expect(missingWords(r.missingEvidence[0]!).what).toBe('a schedulable window for too-long');
  });

  it('lists only the evidence its own levers lacked, and is fully trusted when nothing is missing', () => {
    const t = telemetry([
      answer('gpu-requests:workload:nightly-eval', [hourly([...repeat(6, 4), ...repeat(18, 0), ...repeat(6, 4), ...repeat(18, 0)])]),
      answer('gpu-busy-percent:workload:nightly-eval', [hourly(repeat(48, 80))]),
      missing('vllm-kv-cache:workload:elsewhere'),
    ]);
    const job = batch({ name: 'nightly-eval', jobsPerDay: 2, runtime: 360, selector: { namespace: 'eval' } });
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [job],
      catalogFile: 'c',
      policy: policy({ headroom: 0 }),
      telemetry: t,
    });
    // The unanswered KV-cache query belongs to another workload: not this change's concern.
    expect(r.missingEvidence).toEqual([]);
    expect(r).toMatchObject({ verdict: 'not-justified', confidence: 'high', need: 4 });
    expect(r.runtimes?.[0]).toMatchObject({ observedMinutes: 360, differs: false });
    expect(r.evidence.some((e) => e.source === 'prometheus' && e.window === `2880m to ${t.at}`)).toBe(true);
  });
});

describe('reviewChange with catalog errors', () => {
  const etlProblem = {
    file: 'gpu-workloads.yaml',
    line: 14,
    severity: 'error' as const,
    message: 'workloads[1].jobsPerDay: must be a positive whole number, got 0',
  };
  const rejectedEtl = { name: 'etl', queue: 'research', pool: null, problem: etlProblem };

  it('will not find fewer GPUs needed while an entry of the changed queue was dropped for its errors', () => {
    const ctx = {
      change: queueChange('research', 4, 8),
      workloads: [fourPairs],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
    };
    // Without the broken entry the staggered pairs fit the 4 GPUs there.
    expect(reviewChange(ctx).verdict).toBe('not-justified');
    const r = reviewChange({ ...ctx, rejected: [rejectedEtl] });
    expect(r).toMatchObject({ verdict: 'insufficient-evidence', gpusNeeded: null, findings: [] });
    expect(reviewReason(r)).toBe('etl cannot be planned from the catalog, so the need of ClusterQueue research is unknown');
    expect(missingWords(r.missingEvidence[0]!)).toEqual({
      what: 'a valid catalog entry for etl (gpu-workloads.yaml:14), which names ClusterQueue research',
      how: `fix gpu-workloads.yaml:14: ${etlProblem.message}; until then the entry is left out of the need`,
    });
    // An entry of another queue changes nothing here.
    expect(reviewChange({ ...ctx, rejected: [{ ...rejectedEtl, queue: 'other' }] }).verdict).toBe('not-justified');
  });

  it('asks to fix the entries, not to document them, when every entry of the queue has errors', () => {
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy(),
      rejected: [rejectedEtl],
    });
    expect(r.verdict).toBe('insufficient-evidence');
    expect(r.missingEvidence.map((m) => missingWords(m).how)).toEqual([
      `fix gpu-workloads.yaml:14: ${etlProblem.message}; until then the entry is left out of the need`,
    ]);
  });

  it('names the line that keeps a broken catalog from being read', () => {
    const catalogError = {
      file: 'gpu-workloads.yaml',
      line: 4,
      severity: 'error' as const,
      message: 'invalid YAML: Nested mappings are not allowed in compact mappings',
    };
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy(),
      catalogError,
    });
    expect(r.verdict).toBe('insufficient-evidence');
    expect(r.missingEvidence.map((m) => missingWords(m))).toEqual([
      { what: 'a readable workload catalog (gpu-workloads.yaml)', how: `fix gpu-workloads.yaml:4: ${catalogError.message}` },
    ]);
    expect(r.missingEvidence[0]).toMatchObject({ code: 'catalog-unreadable', at: 'gpu-workloads.yaml:4' });
  });
});

describe('reviewChange: the need in words', () => {
  it('names no staggered peak for a pool that runs services only', () => {
    const r = reviewChange({
      change: queueChange('l4-pool', 8, 16, { kind: 'karpenter-nodepool' }),
      workloads: [
        service({ name: 'chat', queue: undefined, pool: 'l4-pool', replicas: 4 }),
        service({ name: 'embed', queue: undefined, pool: 'l4-pool', gpusPerReplica: 2, replicas: 1 }),
      ],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0.2 }),
    });
    // 4 + 2 declared, + 20% = 7.2 → 8: the 8 GPUs there.
    expect(r).toMatchObject({ verdict: 'not-justified', need: 8 });
    expect(reviewReason(r)).toBe('the 8 GPUs already there meet the need (8 GPUs: 6 for services + 20% headroom)');
  });

  it('rates a review whose telemetry answered nothing as low as one without telemetry', () => {
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [fourPairs],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0 }),
      telemetry: telemetry([missing('queue-usage:queue:research'), missing('cohort-nominal-quota:queue:research')]),
    });
    expect(r.confidence).toBe('low');
  });
});
