import { describe, expect, it } from 'vitest';
import { capacityLadder, workloadLadder } from '../../src/analysis/ladder.js';
import { Measured } from '../../src/analysis/measured.js';
import type { MigPresenceStatus } from '../../src/telemetry/mig-presence.js';
import type { QueryResult } from '../../src/telemetry/source.js';
import { batch, policy, queueChange } from '../factories.js';
import { answer, hourly, missing, repeat, telemetry } from './measured-fixture.js';
import { missingWords } from '../../src/report/missing-words.js';

const w = batch({ name: 'job', selector: { namespace: 'ns' }, gpusPerJob: 2, runtime: 1440, jobsPerDay: 1 });
const id = 'workload:job';
const rejected = (qid: string): QueryResult => ({ ...missing(qid), reason: 'bad-query', message: 'rejected' });

/** Telemetry whose MIG presence probe said `status` (or was never asked). */
function measuredWith(results: QueryResult[], status?: MigPresenceStatus): Measured {
  const t = telemetry(results);
  if (status !== undefined)
    t.evidence.mig = {
      status,
      result: status === 'failed' ? rejected('mig.presence:cluster') : answer('mig.presence:cluster', [], 'instant'),
    };
  return new Measured(t);
}

const whats = (m: Measured) => m.missing().map((x) => missingWords(x).what);

describe('MIG queries that fail after the probe', () => {
  // Whole GPUs answered; both MIG queries of the workload rejected.
  const wholeJob: QueryResult[] = [
    answer(`ksm.gpu-requests:${id}`, [hourly(repeat(48, 2))]),
    answer(`dcgm.gpu-util:${id}`, [hourly(repeat(48, 50))]),
    rejected(`dcgm.mig-activity:${id}`),
    rejected(`ksm.mig-requests:${id}`),
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
    const base = [
      answer(`kueue.usage:queue:${q}`, [{ ...hourly(repeat(48, 4)), labels: { flavor: 'a100' } }]),
      answer(`kueue.nominal-quota:queue:${q}`, [{ ...hourly(repeat(48, 8)), labels: { flavor: 'a100' } }]),
    ];
    const unknown = measuredWith([...base, rejected(`kueue.mig-usage:queue:${q}`)], 'failed');
    capacityLadder(queueChange(q, 8, 16), unknown, [], 0, policy());
    expect(whats(unknown)).toContain(`what kueue.mig-usage:queue:${q}: rejected`);
    const none = measuredWith([...base, missing(`kueue.mig-usage:queue:${q}`)], 'failed');
    capacityLadder(queueChange(q, 8, 16), none, [], 0, policy());
    expect(whats(none).filter((x) => x.includes('mig'))).toEqual([]);
  });
});
