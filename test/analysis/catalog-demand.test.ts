import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeCatalog, measuredEntries, splitCatalog } from '../../src/analysis/catalog-demand.js';
import type { JobWorkload, Workload } from '../../src/domain/index.js';
import { batch, policy, service } from '../factories.js';
import { answer, hourly, row, telemetry } from './measured-fixture.js';

/** A pull request cannot write the demand that justifies it: the catalog judged entry by entry. */

const base = [
  batch({ name: 'eval', queue: 'research', gpusPerJob: 2, jobsPerDay: 4, runtime: 120, window: { earliestStart: 0, deadline: 360 } }),
];

const judge = (b: Workload[], h: Workload[], t: Parameters<typeof judgeCatalog>[1] = null) => judgeCatalog(splitCatalog(b, h), t, policy());

/** GPU requests of a workload's pods, hourly over the fixture's 48 hours: `gpus` held for `hours` of each day. */
function requested(name: string, gpus: number, hoursADay: number) {
  const day = Array.from({ length: 24 }, (_, h) => (h < hoursADay ? gpus : 0));
  return answer(`gpu-requests:workload:${name}`, [hourly([...day, ...day])]);
}

describe('an entry the base branch has', () => {
  it.each([
    ['more runs', { jobsPerDay: 8 }, 'jobsPerDay: 4 → 8'],
    ['more GPUs per job', { gpusPerJob: 4 }, 'gpusPerJob: 2 → 4'],
    ['longer runs', { runtime: 240 }, 'runtime (minutes): 120 → 240'],
    ['a shorter window', { window: { earliestStart: 0, deadline: 240 } }, 'window: 360 → 240 minutes'],
    ['a move to another queue', { queue: 'prod' }, 'queue: research → prod'],
  ])('is judged as the base has it when the head asks for %s and nothing measured it', (_name, over, field) => {
    const judged = judge(base, [{ ...base[0]!, ...over }]);
    expect(judged.workloads).toEqual(base);
    expect(judged.raised).toEqual([{ workload: 'eval', fields: [field] }]);
    expect(judged.declared).toEqual([expect.objectContaining({ workload: 'eval', change: 'raised', support: null })]);
  });

  it('keeps the base entry when one field grows and another shrinks', () => {
    expect(judge(base, [{ ...base[0]!, gpusPerJob: 8, runtime: 30 }]).workloads).toEqual(base);
  });

  it('is taken as the head has it when it asks for no more, and is not declared demand', () => {
    const lower = { ...base[0]!, jobsPerDay: 2 };
    const judged = judge(base, [lower]);
    expect(judged.workloads).toEqual([lower]);
    expect(judged.declared).toEqual([]);
  });

  it('raised, is taken as written once its runs (through the base selector) measure what the head declares', () => {
    const measuredBase = { ...base[0]!, selector: { namespace: 'eval' } };
    const head = { ...measuredBase, jobsPerDay: 8 };
    // 8 runs × 2 GPUs × 2 h = 32 GPU-hours a day: 2 GPUs for 16 h.
    const judged = judge([measuredBase], [head], telemetry([requested('eval', 2, 16)]));
    expect(judged.workloads).toEqual([head]);
    expect(judged.declared[0]?.support).toMatchObject({ by: 'telemetry', peakGpus: 2, gpuHoursPerDay: 32 });
    // The telemetry asked about the raised entry through the base's selector, not one the PR wrote.
    expect(measuredEntries(splitCatalog([measuredBase], [{ ...head, selector: { namespace: 'busy' } }]))).toEqual([measuredBase]);
  });

  it('keeps a service as the base has it when the head adds replicas or tightens its SLO', () => {
    const svc = service({ name: 'chat', replicas: 2, gpusPerReplica: 1, slo: { p95LatencyMs: 500 } });
    expect(judge([svc], [{ ...svc, replicas: 6 }]).workloads).toEqual([svc]);
    expect(judge([svc], [{ ...svc, slo: { p95LatencyMs: 100 } }]).raised[0]?.fields).toEqual(['slo.p95LatencyMs: 500 → 100']);
  });
});

describe('an entry only the head has', () => {
  const job = fc.record({
    gpusPerJob: fc.integer({ min: 1, max: 400 }),
    jobsPerDay: fc.integer({ min: 1, max: 6 }),
    runtime: fc.integer({ min: 30, max: 240 }),
    type: fc.constantFrom('batch' as const, 'training' as const),
  });

  it('is left out until measured, whatever it declares', () => {
    fc.assert(
      fc.property(job, (j) => {
        const added = batch({ name: 'new-finetune', ...j, selector: { namespace: 'ft' } });
        const judged = judge(base, [...base, added]);
        expect(judged.workloads).toEqual(base);
        expect(judged.asWritten).toEqual([...base, added]);
        expect(judged.declaredInPr).toEqual(['new-finetune']);
        expect(judged.declared).toEqual([
          {
            workload: 'new-finetune',
            change: 'added',
            gpus: j.gpusPerJob,
            gpuHoursPerDay: (j.jobsPerDay * j.gpusPerJob * j.runtime) / 60,
            support: null,
          },
        ]);
      }),
      { numRuns: 100, seed: 20_261_230 },
    );
  });

  it('counts once its runs reach, at their peak and per day, what it declares; not when they fall short', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 20 }), fc.boolean(), (gpus, hours, short) => {
        const added: JobWorkload = batch({
          name: 'ft',
          gpusPerJob: gpus,
          jobsPerDay: 1,
          runtime: hours * 60,
          selector: { namespace: 'ft' },
        });
        // Short: the pods held half the GPUs a run declares (a peak that cannot be one run).
        const held = short ? Math.floor(gpus / 2) : gpus;
        const judged = judge(base, [...base, added], telemetry([requested('ft', held, hours)]));
        const counted = judged.workloads.some((w) => w.name === 'ft');
        expect(counted).toBe(held >= gpus * 0.75);
      }),
      { numRuns: 100, seed: 20_261_231 },
    );
  });

  it('cannot be measured through the pods of another entry: a selector that may pick them supports nothing', () => {
    const measuredBase = [{ ...base[0]!, selector: { namespace: 'eval' } }];
    const t = telemetry([requested('copy', 2, 8)]);
    for (const selector of [{ namespace: 'eval' }, { namespace: 'eval', app: 'x' }] as Record<string, string>[]) {
      const copy = batch({ name: 'copy', gpusPerJob: 2, jobsPerDay: 4, runtime: 120, selector });
      const judged = judge(measuredBase, [...measuredBase, copy], t);
      expect(judged.declared[0]).toMatchObject({ support: null, sharesSelectorWith: 'eval' });
      expect(judged.workloads).toEqual(measuredBase);
    }
    // Another app in the same namespace is other pods.
    const other = batch({ name: 'copy', gpusPerJob: 2, jobsPerDay: 4, runtime: 120, selector: { namespace: 'eval', app: 'x' } });
    const apart = [{ ...base[0]!, selector: { namespace: 'eval', app: 'y' } }];
    expect(judge(apart, [...apart, other], t).declared[0]?.support).toMatchObject({ by: 'telemetry' });
  });

  it('a large declared run cannot borrow the volume of a small one: the peak must reach it too', () => {
    // 396 GPUs for one hour a day declared; telemetry shows 16.5 GPUs around the clock (the same GPU-hours).
    const added = batch({ name: 'big', gpusPerJob: 396, jobsPerDay: 1, runtime: 60, selector: { namespace: 'big' } });
    const flat = answer('gpu-requests:workload:big', [hourly(Array.from({ length: 48 }, () => 16.5))]);
    expect(judge(base, [...base, added], telemetry([flat])).workloads).toEqual(base);
  });

  it('a service counts sized from its observed peak and a load test telemetry read, with no more headroom than the policy', () => {
    const chat = service({
      name: 'chat',
      replicas: 40,
      headroom: 0.9,
      selector: { namespace: 'chat' },
      slo: { p95LatencyMs: 2000 },
      loadTest: 'lt.json',
    });
    const t = telemetry([answer('request-rate:workload:chat', [hourly([1, 2, 4, 3])])], {
      'lt.json': { ok: true, value: { format: 'guidellm', rows: [row(4.44, 1940)] } },
    });
    const judged = judge(base, [...base, chat], t);
    expect(judged.declared[0]?.support).toMatchObject({ by: 'load-test', gpusNeeded: 2 });
    expect(judged.workloads.find((w) => w.name === 'chat')).not.toHaveProperty('headroom');
    // Without a load test it could read, it does not count.
    expect(judge(base, [...base, chat], telemetry([answer('request-rate:workload:chat', [hourly([4])])])).workloads).toEqual(base);
  });

  it('a filled entry (its `unknown` fields taken from telemetry) is the PR’s unless the base has it', () => {
    const filled = batch({ name: 'ft', gpusPerJob: 8 });
    expect(judgeCatalog(splitCatalog(base, base), null, policy(), { workloads: [filled], baseNames: new Set() }).workloads).toEqual(base);
    expect(judgeCatalog(splitCatalog(base, base), null, policy(), { workloads: [filled], baseNames: new Set(['ft']) }).workloads).toEqual([
      ...base,
      filled,
    ]);
  });
});
