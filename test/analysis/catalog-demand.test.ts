import { describe, expect, it } from 'vitest';
import { judgedCatalog } from '../../src/analysis/catalog-demand.js';
import { batch, service } from '../factories.js';

describe('judgedCatalog', () => {
  const base = [
    batch({ name: 'eval', queue: 'research', gpusPerJob: 2, jobsPerDay: 4, runtime: 120, window: { earliestStart: 0, deadline: 360 } }),
  ];

  it.each([
    ['more runs', { jobsPerDay: 8 }, 'jobsPerDay: 4 → 8'],
    ['more GPUs per job', { gpusPerJob: 4 }, 'gpusPerJob: 2 → 4'],
    ['longer runs', { runtime: 240 }, 'runtime (minutes): 120 → 240'],
    ['a shorter window', { window: { earliestStart: 0, deadline: 240 } }, 'window: 360 → 240 minutes'],
    ['a move to another queue', { queue: 'prod' }, 'queue: research → prod'],
  ])('keeps the base entry when the head asks for %s', (_name, over, field) => {
    const head = [{ ...base[0]!, ...over }];
    const judged = judgedCatalog(base, head);
    expect(judged.workloads).toEqual(base);
    expect(judged.raised).toEqual([{ workload: 'eval', fields: [field] }]);
  });

  it('keeps the base entry when one field grows and another shrinks', () => {
    const judged = judgedCatalog(base, [{ ...base[0]!, gpusPerJob: 8, runtime: 30 }]);
    expect(judged.workloads).toEqual(base);
  });

  it('takes the head entry when it asks for no more, and counts new entries as declared by the PR', () => {
    const lower = { ...base[0]!, jobsPerDay: 2 };
    const added = service({ name: 'chat', queue: 'research', replicas: 2, gpusPerReplica: 1 });
    const judged = judgedCatalog(base, [lower, added]);
    expect(judged.workloads).toEqual([lower, added]);
    expect(judged.raised).toEqual([]);
    expect(judged.declaredInPr).toEqual(['chat']);
  });

  it('keeps a service as the base has it when the head adds replicas or tightens its SLO', () => {
    const svc = service({ name: 'chat', replicas: 2, gpusPerReplica: 1, slo: { p95LatencyMs: 500 } });
    expect(judgedCatalog([svc], [{ ...svc, replicas: 6 }]).workloads).toEqual([svc]);
    expect(judgedCatalog([svc], [{ ...svc, slo: { p95LatencyMs: 100 } }]).raised[0]?.fields).toEqual(['slo.p95LatencyMs: 500 → 100']);
  });
});
