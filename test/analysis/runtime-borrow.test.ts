import { describe, expect, it } from 'vitest';
import { cohortSupply } from '../../src/analysis/supply/cohort-supply.js';
import { slotOf } from '../../src/analysis/supply/day-profile.js';
import { reviewChange } from '../../src/analysis/review-change.js';
import { observedRuntime, plannedRuntimes, runDays, runtimeFinding } from '../../src/analysis/runtime-check.js';
import { batch, policy, queueChange } from '../factories.js';
import { answer, hourly, measured, missing, repeat, telemetry } from './measured-fixture.js';
import { findingText } from '../../src/report/findings.js';
import { missingWords } from '../../src/report/missing-words.js';

describe('runtime cross-check', () => {
  // Two days of hourly points: 4 GPUs for 6 hours each day (two 2-GPU runs at once).
  const day = [...repeat(6, 4), ...repeat(18, 0)];
  const m = () => measured([answer('gpu-requests:workload:eval', [hourly([...day, ...day])])]);
  const evalJob = (runtime: number) => batch({ name: 'eval', jobsPerDay: 2, gpusPerJob: 2, runtime, selector: { namespace: 'eval' } });

  it('reads the mean runtime from GPU-hours requested per day over GPUs per day of runs', () => {
    // 24 GPU-hours a day ÷ (2 runs × 2 GPUs) = 6 h.
    const c = observedRuntime(evalJob(240), m())!;
    expect(c).toMatchObject({ observedMinutes: 360, documentedMinutes: 240, differs: true });
    expect(observedRuntime(evalJob(300), m())!.differs).toBe(false); // 20% off
  });

  it('plans with a longer observed runtime, reports a shorter one only', () => {
    const long = observedRuntime(evalJob(240), m())!;
    expect(plannedRuntimes([evalJob(240)], [long])[0]?.runtime).toBe(360);
    const short = observedRuntime(evalJob(600), m())!;
    expect(short.differs).toBe(true);
    expect(plannedRuntimes([evalJob(600)], [short])[0]?.runtime).toBe(600);
    expect(findingText(runtimeFinding([long])!)).toContain(
      'documented at 4h but its runs took 6h on average (planned with the observed runtime)',
    );
    expect(runtimeFinding([observedRuntime(evalJob(330), m())!])).toBeNull();
  });

  it("expects a weekday job's runs only on its days of the window", () => {
    // The window is Thursday and Friday (to Saturday 2026-01-03 00:00 UTC): 48 GPU-hours in all.
    const on = (days: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[]) =>
      observedRuntime(batch({ name: 'eval', jobsPerDay: 2, gpusPerJob: 2, runtime: 360, days, selector: { namespace: 'eval' } }), m());
    // Both days are its days: 48 ÷ (2 days × 2 runs × 2 GPUs) = 6 h, as for a daily job.
    expect(on(['thu', 'fri'])?.observedMinutes).toBeCloseTo(360, 6);
    // Thursday only: the GPUs it held on Friday make each of its runs look twice as long.
    expect(on(['mon', 'tue', 'wed', 'thu'])?.observedMinutes).toBeCloseTo(720, 6);
    // A weekend job has no run in this window to time.
    expect(on(['sat', 'sun'])).toBeNull();
  });

  it('counts a partly covered day of the window by its share', () => {
    // Thursday 12:00 to Saturday 12:00 UTC.
    const at = '2026-01-03T12:00:00.000Z';
    expect(runDays({ days: ['sat'] }, at, 48 * 60)).toBeCloseTo(0.5, 9);
    expect(runDays({ days: ['thu', 'fri', 'sat'] }, at, 48 * 60)).toBeCloseTo(2, 9);
    expect(runDays({}, at, 36 * 60)).toBe(1.5);
  });

  it('says what is missing instead of guessing', () => {
    const noSelector = measured([]);
    expect(observedRuntime(batch({ name: 'dark' }), noSelector)).toBeNull();
    expect(missingWords(noSelector.missing()[0]!).how).toContain('selector');
    const unanswered = measured([missing('gpu-requests:workload:eval')]);
    expect(observedRuntime(evalJob(240), unanswered)).toBeNull();
    expect(unanswered.missing()).toHaveLength(1);
  });
});

describe('borrowable cohort quota', () => {
  const change = queueChange('research', 4, 8, {
    after: { file: 'q.yaml', line: 1, kind: 'kueue-cluster-queue', name: 'research', gpuModel: null, gpus: 8, parts: [], cohort: 'ml' },
  });
  const q = (name: string, values: number[]) => hourly(values, { cluster_queue: name });

  const supplyOf = (m: ReturnType<typeof measured>, files: Parameters<typeof cohortSupply>[0]['files'] = []) =>
    cohortSupply({ cohort: 'ml', via: 'research', borrowers: new Set(['research']), changes: [change], files }, m);

  it('is what the other queues leave unused at each hour of the day, the least over the window’s days', () => {
    const m = measured([
      answer('cohort-nominal-quota:queue:research', [q('research', repeat(4, 4)), q('a', repeat(4, 4)), q('b', repeat(4, 2))]),
      answer('cohort-usage:queue:research', [q('research', [4, 4, 4, 4]), q('a', [1, 2, 3, 2]), q('b', [0, 0, 2, 0])]),
      answer('cohort-lending-limit:queue:research', [q('a', repeat(4, 1e15)), q('b', repeat(4, 1e15))]),
    ]);
    // Unused a+b per hour: 3+2, 2+2, 1+0, 2+2; the hours after the last sample keep its value.
    const s = supplyOf(m)!;
    const at = (hour: number) => s.free[slotOf(hour * 3600)];
    expect([at(0), at(1), at(2), at(3), at(12)]).toEqual([5, 4, 1, 4, 4]);
    expect(s.lenders.map((l) => ({ queue: l.queue, least: Math.min(...l.free), limit: l.lendingLimit }))).toEqual([
      { queue: 'a', least: 1, limit: null },
      { queue: 'b', least: 0, limit: null },
    ]);
  });

  it('bounds each lender by its lendingLimit, from the PR’s files or Kueue’s metric, the lower', () => {
    const answers = [
      answer('cohort-nominal-quota:queue:research', [q('research', repeat(4, 4)), q('a', repeat(4, 8))]),
      answer('cohort-usage:queue:research', [q('research', repeat(4, 4)), q('a', repeat(4, 2))]),
    ];
    // a keeps 8 − 3 = 5 for itself and uses 2 of them: it lends its whole limit, 3.
    const file = [{ queue: 'a', cohort: 'ml', nominal: 8, lendingLimit: 3, at: 'q.yaml:20' }];
    expect(supplyOf(measured(answers), file)!.free[0]).toBe(3);
    // Using 6 of its 8, past the 5 it keeps: it lends 3 − 1 = 2 (= 8 − 6).
    const busy = [answers[0]!, answer('cohort-usage:queue:research', [q('research', repeat(4, 4)), q('a', repeat(4, 6))])];
    expect(supplyOf(measured(busy), file)!.free[0]).toBe(2);
    // A lendingLimit of 0 in the file lends nothing, whatever it leaves unused.
    expect(supplyOf(measured(answers), [{ ...file[0]!, lendingLimit: 0 }])!.free[0]).toBe(0);
    // Kueue's metric says 1 where the file says 3: the lower.
    const metric = answer('cohort-lending-limit:queue:research', [q('a', repeat(4, 1))]);
    expect(supplyOf(measured([...answers, metric]), file)!.free[0]).toBe(1);
    // No file, a metric of 0 from a Kueue that reports no unset limit as +Inf: 0, and said to be unclear.
    const zero = measured([...answers, answer('cohort-lending-limit:queue:research', [q('a', repeat(4, 0))])]);
    expect(supplyOf(zero)!.free[0]).toBe(0);
    expect(zero.missing()).toContainEqual({ code: 'lending-limit-ambiguous', cohort: 'ml', queues: ['a'] });
    // No file and no metric: nothing counted, and said so.
    const none = measured(answers);
    expect(supplyOf(none)!.free[0]).toBe(0);
    expect(none.missing()).toContainEqual({ code: 'lending-limit-unknown', cohort: 'ml', queues: ['a'] });
  });

  it('claims nothing for a queue in no cohort, or without the cohort queries', () => {
    const review = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [batch({ name: 'eval', gpusPerJob: 4, runtime: 360 })],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0.5 }),
      telemetry: telemetry([]),
    });
    expect(review.findings.find((f) => f.lever === 'borrow-quota')).toBeUndefined();
    const m = measured([missing('cohort-usage:queue:research')]);
    expect(supplyOf(m)).toBeNull();
    expect(m.missing().length).toBeGreaterThan(0);
  });

  it('tells how far the queue’s own borrowingLimit is from what the cohort leaves unused', () => {
    const cohortAnswers = [
      answer('cohort-nominal-quota:queue:research', [q('research', repeat(4, 4)), q('a', repeat(4, 8))]),
      answer('cohort-usage:queue:research', [q('research', repeat(4, 4)), q('a', [2, 3, 2, 2])]),
      answer('cohort-lending-limit:queue:research', [q('a', repeat(4, 1e15))]),
    ];
    const summaryWith = (borrowingLimit?: number) => {
      const after = { ...change.after!, ...(borrowingLimit === undefined ? {} : { borrowingLimit }) };
      const review = reviewChange({
        change: { ...change, after },
        workloads: [batch({ name: 'eval', gpusPerJob: 4, runtime: 360, jobsPerDay: 1 })],
        catalogFile: 'gpu-workloads.yaml',
        policy: policy({ headroom: 0 }),
        telemetry: telemetry(cohortAnswers),
      });
      const borrow = review.findings.find((f) => f.lever === 'borrow-quota');
      return borrow ? findingText(borrow) : '';
    };
    // Queue a leaves 8 − 3 = 5 GPUs unused at worst.
    expect(summaryWith(0)).toContain("raising research's borrowingLimit from 0 to 5 lets it use them");
    expect(summaryWith(5)).toContain("research's borrowingLimit of 5 already reaches them");
    expect(summaryWith()).toContain("with no borrowingLimit on research's GPU flavor it may use them");
  });
});
