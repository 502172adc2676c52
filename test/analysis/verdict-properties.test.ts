import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../src/analysis/review-change.js';
import type { ChangeReview, Measurement, ScopeId, Verdict, Workload } from '../../src/domain/index.js';
import { batch, policy, queueChange, service } from '../factories.js';
import { answer, hourly, missing, repeat, row, telemetry } from './measured-fixture.js';

const RANK: Partial<Record<Verdict, number>> = { 'not-justified': 0, 'partially-justified': 1, justified: 2 };
// A catalog-free review's confidence ranks with medium: measured, but not documented.
const TRUST = { low: 0, medium: 1, inferred: 1, high: 2 } as const;

const jobArb = fc.record({
  gpus: fc.integer({ min: 1, max: 4 }),
  runtime: fc.integer({ min: 30, max: 240 }),
  jobsPerDay: fc.integer({ min: 1, max: 3 }),
  start: fc.integer({ min: 0, max: 600 }),
  slack: fc.integer({ min: 0, max: 300 }),
  util: fc.integer({ min: 0, max: 100 }),
});
const serviceArb = fc.record({
  replicas: fc.integer({ min: 1, max: 4 }),
  peak: fc.double({ min: 0.1, max: 20, noNaN: true }),
  rate: fc.double({ min: 0.5, max: 8, noNaN: true }),
});
const scenarioArb = fc
  .record({
    jobs: fc.array(jobArb, { minLength: 0, maxLength: 3 }),
    services: fc.array(serviceArb, { minLength: 0, maxLength: 2 }),
    headroom: fc.constantFrom(0, 0.2, 0.5),
    idleBelow: fc.constantFrom(0.05, 0.5),
  })
  .filter((s) => s.jobs.length + s.services.length > 0);

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

/** The catalog and every answer the levers read, from one scenario. */
function build(s: Scenario): { workloads: Workload[]; results: Measurement[]; loadTests: Parameters<typeof telemetry>[1] } {
  const workloads: Workload[] = [];
  const results: Measurement[] = [];
  const loadTests: NonNullable<Parameters<typeof telemetry>[1]> = {};
  s.jobs.forEach((j, i) => {
    const name = `job${i}`;
    workloads.push(
      batch({
        name,
        gpusPerJob: j.gpus,
        runtime: j.runtime,
        jobsPerDay: j.jobsPerDay,
        selector: { namespace: name },
        window: { earliestStart: j.start, deadline: j.start + j.runtime + j.slack },
      }),
    );
    const id: ScopeId = `workload:${name}`;
    // Requests that match the documented runtime, so the cross-check agrees.
    const hours = Math.round((j.runtime * j.jobsPerDay) / 60);
    const day = [...repeat(Math.min(24, hours), j.gpus), ...repeat(24 - Math.min(24, hours), 0)];
    results.push(answer(`gpu-requests:${id}`, [hourly([...day, ...day])]), answer(`gpu-busy-percent:${id}`, [hourly(repeat(48, j.util))]));
  });
  s.services.forEach((v, i) => {
    const name = `svc${i}`;
    workloads.push(
      service({ name, replicas: v.replicas, selector: { namespace: name }, slo: { p95LatencyMs: 2000 }, loadTest: `${name}.json` }),
    );
    results.push(answer(`request-rate:workload:${name}`, [hourly([v.peak / 2, v.peak])]));
    loadTests[`${name}.json`] = { ok: true, value: { format: 'guidellm', rows: [row(v.rate, 1500)] } };
  });
  return { workloads, results, loadTests };
}

function judge(
  s: Scenario,
  before: number,
  after: number,
  results: Measurement[],
  loadTests: Parameters<typeof telemetry>[1],
  withTelemetry = true,
): ChangeReview {
  const { workloads } = build(s);
  return reviewChange({
    change: queueChange('research', before, after),
    workloads,
    catalogFile: 'gpu-workloads.yaml',
    policy: policy({ headroom: s.headroom, idleBelow: s.idleBelow }),
    telemetry: withTelemetry ? telemetry(results, loadTests) : null,
  });
}

describe('verdict properties', () => {
  it('more capacity before never makes the same request more justified', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 10 }),
        (s, b1, extra, ask) => {
          const { results, loadTests } = build(s);
          const b2 = b1 + extra;
          const after = b2 + ask;
          const r1 = judge(s, b1, after, results, loadTests);
          const r2 = judge(s, b2, after, results, loadTests);
          if (r1.verdict === 'insufficient-evidence' || r2.verdict === 'insufficient-evidence') return;
          expect(RANK[r2.verdict]).toBeLessThanOrEqual(RANK[r1.verdict] ?? -1);
          expect(r2.gpusNeeded ?? 0).toBeLessThanOrEqual(r1.gpusNeeded ?? 0);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('removing evidence never yields a more confident verdict, and missing evidence is never high confidence', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
        fc.boolean(),
        (s, before, ask, keep, dropLoadTests) => {
          const { results, loadTests } = build(s);
          const full = judge(s, before, before + ask, results, loadTests);
          const fewer = results.map((r, i) => (keep[i % keep.length] ? r : missing(r.key)));
          const partial = judge(s, before, before + ask, fewer, dropLoadTests ? {} : loadTests);
          const none = judge(s, before, before + ask, [], {}, false);
          for (const r of [full, partial, none]) {
            if (r.missingEvidence.length > 0) expect(r.confidence).not.toBe('high');
          }
          expect(TRUST[partial.confidence ?? 'low']).toBeLessThanOrEqual(TRUST[full.confidence ?? 'low']);
          expect(TRUST[none.confidence ?? 'low']).toBeLessThanOrEqual(TRUST[full.confidence ?? 'low']);
          expect(none.confidence).not.toBe('high');
        },
      ),
      { numRuns: 150 },
    );
  });
});
