import { describe, expect, it } from 'vitest';
import { capacityLadder, workloadLadder } from '../../src/analysis/ladder.js';
import { Measured } from '../../src/analysis/measured.js';
import type { Measurement, MeasureKey, MigPresenceState, MissingMeasurement, ScopeId } from '../../src/domain/index.js';
import { batch, policy, queueChange } from '../factories.js';
import { answer, hourly, missing, repeat, telemetry } from './measured-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';

const w = batch({ name: 'job', selector: { namespace: 'ns' }, gpusPerJob: 2, runtime: 1440, jobsPerDay: 1 });
const id: ScopeId = 'workload:job';
const rejected = (key: MeasureKey): MissingMeasurement => missing(key, 'failed', 'rejected');

/** Measurements whose MIG presence probe said `status` (or was never asked). */
function measuredWith(results: Measurement[], status?: MigPresenceState): Measured {
  return new Measured(telemetry(results, {}, undefined, { migPresence: status ?? null }));
}

const whats = (m: Measured) => m.missing().map((x) => missingWords(x).what);

describe('MIG queries that fail after the probe', () => {
  // Whole GPUs answered; both MIG queries of the workload rejected.
  const wholeJob: Measurement[] = [
    answer(`gpu-requests:${id}`, [hourly(repeat(48, 2))]),
    answer(`gpu-busy-percent:${id}`, [hourly(repeat(48, 50))]),
    rejected(`mig-activity:${id}`),
    rejected(`mig-requests:${id}`),
  ];

  it('are listed when the probe failed too: whether the workload uses MIG devices is then unknown', () => {
    const m = measuredWith(wholeJob, 'failed');
    const l = workloadLadder(w, m, policy())!;
    expect(l.allocatedGpuHours).toBe(96);
    expect(whats(m)).toEqual(expect.arrayContaining([`what dcgm.mig-activity:${id}: rejected`, `what ksm.mig-requests:${id}: rejected`]));
  });

  it('are not listed when the probe found MIG elsewhere, or was never asked: the review reads as before', () => {
    for (const status of ['found', undefined] as const) {
      const m = measuredWith(wholeJob, status);
      workloadLadder(w, m, policy());
      expect(whats(m).filter((x) => x.includes('mig'))).toEqual([]);
    }
  });

  it("a ClusterQueue's MIG usage: listed when it and the probe failed, not when it found nothing", () => {
    const q = 'research';
    const base = [answer(`queue-usage:queue:${q}`, [{ ...hourly(repeat(48, 4)), labels: { flavor: 'a100' } }])];
    const unknown = measuredWith([...base, rejected(`queue-mig-usage:queue:${q}`)], 'failed');
    capacityLadder(queueChange(q, 8, 16), unknown, [], 0, policy());
    expect(whats(unknown)).toContain(`what kueue.mig-usage:queue:${q}: rejected`);
    const none = measuredWith([...base, missing(`queue-mig-usage:queue:${q}`)], 'failed');
    capacityLadder(queueChange(q, 8, 16), none, [], 0, policy());
    expect(whats(none).filter((x) => x.includes('mig'))).toEqual([]);
  });
});
