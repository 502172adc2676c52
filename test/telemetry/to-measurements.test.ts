import { missingWords } from '../../src/report/missing-words.js';
import { describe, expect, it } from 'vitest';
import type { MissingEvidence } from '../../src/domain/index.js';
import type { ReviewTelemetry } from '../../src/telemetry/collect.js';
import { measureKeyOfQuery, queryIdOfMeasure } from '../../src/telemetry/measure/families.js';
import { toMeasurements } from '../../src/telemetry/measure/to-measurements.js';
import type { MissingReason, QueryAnswer, QueryMissing, QueryResult } from '../../src/telemetry/source.js';

const AT = '2026-01-03T00:00:00.000Z';
const ID = 'ksm.gpu-requests:workload:chat';
const samples = (n: number) => Array.from({ length: n }, (_, i) => ({ t: 1_767_225_600 + i * 3600, v: 2 }));

function answer(id: string, over: Partial<QueryAnswer> = {}): QueryAnswer {
  return {
    status: 'ok',
    query: { id, kind: 'range', promql: `q(${id})`, what: id, how: 'n/a' },
    source: 'test',
    at: AT,
    windowMinutes: 2880,
    resultType: 'matrix',
    series: [{ labels: {}, samples: samples(48) }],
    skipped: { nan: 0, inf: 0, blank: 0 },
    warnings: [],
    step: 3600,
    ...over,
  };
}

function missing(id: string, reason: MissingReason): QueryMissing {
  return {
    status: 'missing',
    query: { id, kind: 'range', promql: `q(${id})`, what: `what ${id}`, how: `how ${id}` },
    source: 'test',
    at: AT,
    windowMinutes: 2880,
    reason,
    message: 'nothing',
  };
}

function reviewTelemetry(results: QueryResult[], outage?: MissingEvidence): ReviewTelemetry {
  const answers = new Map(results.flatMap((r) => (r.status === 'ok' ? [[r.query.id, r] as const] : [])));
  return {
    source: 'test',
    at: AT,
    windowMinutes: 2880,
    evidence: { results, answers, missing: [], ...(outage ? { outage } : {}) },
    loadTests: new Map(),
    allocation: null,
    missing: [],
    loadTestNotes: [],
  };
}

describe('query answers as measurements', () => {
  it('name each answer by its measure and scope, with the evidence of the query that took it', () => {
    const m = toMeasurements(reviewTelemetry([answer(ID)]));
    expect([...m.measurements.keys()]).toEqual(['gpu-requests:workload:chat']);
    expect(m.measurements.get('gpu-requests:workload:chat')).toEqual({
      status: 'measured',
      key: 'gpu-requests:workload:chat',
      series: [{ labels: {}, samples: samples(48) }],
      windowMinutes: 2880,
      stepSeconds: 3600,
      evidence: { source: 'prometheus', ref: `q(${ID})`, window: `2880m to ${AT}` },
      notFinite: null,
    });
    expect(m.answeredAny).toBe(true);
  });

  it('map every measure to a query family and back', () => {
    for (const name of ['gpu-busy-percent', 'pod-gpus', 'mig-activity', 'queue-mig-usage', 'request-rate'] as const) {
      expect(measureKeyOfQuery(queryIdOfMeasure(name, 'pool:a'))).toBe(`${name}:pool:a`);
    }
    expect(measureKeyOfQuery('kueue.pending:queue:q')).toBeNull();
    expect(measureKeyOfQuery('mig.presence:cluster')).toBeNull();
  });

  it('leave out the queries analysis does not read, yet count them as answered', () => {
    const m = toMeasurements(reviewTelemetry([answer('kueue.pending:queue:q')]));
    expect(m.measurements.size).toBe(0);
    expect(m.answeredAny).toBe(true);
  });

  it('keep why a measure is missing: nothing there, not recorded, or failed', () => {
    const m = toMeasurements(
      reviewTelemetry([
        missing('dcgm.gpu-util:pool:a', 'no-data'),
        missing('dcgm.sm-activity:pool:a', 'not-in-snapshot'),
        missing('ksm.gpu-requests:pool:a', 'bad-query'),
        missing('ksm.gpu-allocatable:pool:a', 'not-finite'),
      ]),
    );
    const reasons = [...m.measurements.values()].map((x) => (x.status === 'missing' ? x.reason : x.status));
    expect(reasons).toEqual(['nothing-there', 'not-recorded', 'failed', 'failed']);
    expect(m.measurements.get('gpu-busy-percent:pool:a')).toMatchObject({
      missing: { what: 'what dcgm.gpu-util:pool:a: nothing', how: 'how dcgm.gpu-util:pool:a' },
    });
    expect(m.answeredAny).toBe(false);
  });

  it('give every miss the one outage line when the source answered nothing', () => {
    const outage = { what: 'every measurement from test', how: 'check the URL' };
    const m = toMeasurements(reviewTelemetry([missing('dcgm.gpu-util:pool:a', 'unavailable')], outage));
    expect(m.measurements.get('gpu-busy-percent:pool:a')).toMatchObject({ missing: outage });
  });

  it('note NaN or ±Inf samples left out, naming the query', () => {
    const m = toMeasurements(reviewTelemetry([answer(ID, { skipped: { nan: 5, inf: 1, blank: 0 } })]));
    expect(m.measurements.get('gpu-requests:workload:chat')).toMatchObject({
      notFinite: {
        what: `${ID}: 6 of 54 samples of ${ID} were not finite (5 NaN, 1 infinite); the numbers taken from it count only the finite ones`,
        how: `run ${ID} in Prometheus and find where its NaN or ±Inf values come from (a division by zero in a recording rule, an exporter writing NaN)`,
      },
    });
    const dropped = toMeasurements(reviewTelemetry([answer(ID, { skipped: { nan: 48, inf: 1, blank: 0 }, droppedSeries: 1 })]));
    const taken = dropped.measurements.get('gpu-requests:workload:chat');
    expect(taken?.status === 'measured' && taken.notFinite ? missingWords(taken.notFinite).what : null).toContain(
      '1 of its series had no finite sample and is left out',
    );
  });

  it("carry OpenCost's GPU cost by namespace, or why there is none", () => {
    const query = { at: new Date(AT), windowMinutes: 2880, aggregate: 'namespace' as const };
    const ok = toMeasurements({
      ...reviewTelemetry([]),
      allocation: {
        status: 'ok',
        source: 'opencost',
        query,
        allocations: [{ key: 'chat', gpuHours: 10, gpuCost: 150, totalCost: 200, minutes: 2880 }],
      },
    });
    expect(ok.cost).toEqual({ status: 'measured', namespaces: [{ namespace: 'chat', gpuCost: 150 }] });
    const down = toMeasurements({
      ...reviewTelemetry([]),
      allocation: { status: 'missing', source: 'opencost', query, reason: 'unavailable', message: 'down' },
    });
    expect(down.cost).toEqual({ status: 'missing', message: 'down' });
  });
});
