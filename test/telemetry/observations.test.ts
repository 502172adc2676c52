import { describe, expect, it } from 'vitest';
import { observationsFor } from '../../src/telemetry/observations.js';
import { queueChange } from '../factories.js';
import { answer, hourly, missing, repeat, telemetry } from './answer-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';

const one = (labels: Record<string, string>, v: number) => ({ labels, samples: [{ t: 1, v }] });

describe('observations of a changed queue, from the review’s answers', () => {
  it('adds pending GPUs to admitted ones at each time, and pending workloads apart', () => {
    const admitted = [...repeat(24, 2), ...repeat(24, 6)];
    const pending = [...repeat(24, 0), ...repeat(12, 3), ...repeat(12, 0)];
    const o = observationsFor(
      queueChange('research', 8, 12),
      telemetry([
        answer('kueue.usage:queue:research', [hourly(admitted, { flavor: 'a100' })]),
        answer('kueue.pending-gpus:queue:research', [hourly(pending)]),
        answer('kueue.pending:queue:research', [
          hourly(repeat(48, 1), { status: 'active' }),
          hourly(repeat(48, 2), { status: 'inadmissible' }),
        ]),
      ]),
    );
    expect(o.demand).toMatchObject({ scope: 'queue', peakHeld: 6, peakPending: 3, peakDemand: 9, peakPendingWorkloads: 3, days: 2 });
    // (24×2 + 24×6 + 12×3) GPU-hours over two days.
    expect(o.demand!.gpuHoursPerDay).toBeCloseTo((48 + 144 + 36) / 2, 6);
    expect(o.missing).toEqual([]);
  });

  it('leaves a run without a completion unfinished, names its CronJob, and says what is missing', () => {
    const owner = { owner_kind: 'CronJob', owner_name: 'nightly' };
    const o = observationsFor(
      queueChange('research', 8, 12),
      telemetry([
        missing('kueue.usage:queue:research'),
        answer(
          'ksm.job-starts:queue:research',
          [
            one({ namespace: 'etl', job_name: 'nightly-1', ...owner }, 1000),
            one({ namespace: 'etl', job_name: 'adhoc', owner_kind: '<none>', owner_name: '<none>' }, 500),
          ],
          'instant',
        ),
        answer(
          'ksm.job-completions:queue:research',
          [one({ namespace: 'etl', job_name: 'adhoc', owner_kind: '<none>', owner_name: '<none>' }, 900)],
          'instant',
        ),
      ]),
    );
    expect(o.demand).toBeNull();
    // Admitted usage is what the demand rests on: its absence is listed, the optional queries' are not.
    expect(o.missing).toHaveLength(1);
    expect(missingWords(o.missing[0]!).what).toContain('what kueue.usage:queue:research');
    expect(o.jobRuns?.runs).toEqual([
      { namespace: 'etl', job: 'adhoc', cronJob: null, startedAt: 500, completedAt: 900 },
      { namespace: 'etl', job: 'nightly-1', cronJob: 'nightly', startedAt: 1000, completedAt: null },
    ]);
  });
});
