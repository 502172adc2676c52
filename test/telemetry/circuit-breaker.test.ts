import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { withCircuitBreaker } from '../../src/telemetry/circuit-breaker.js';
import { collectTelemetry } from '../../src/telemetry/collect.js';
import { gatherEvidence, planQueries } from '../../src/telemetry/gather.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { scopeForChange } from '../../src/telemetry/scopes.js';
import { MIG_PRESENCE_ID } from '../../src/telemetry/queries/mig-presence.js';
import type { TelemetryEvidence } from '../../src/telemetry/gather.js';
import { batch, queueChange, service } from '../factories.js';
import { closedPort, sendJson, startServer, vector } from './local-server.js';
import type { Handler, LocalServer } from './local-server.js';
import { missingWords } from '../../src/report/missing-words.js';

const AT = new Date('2026-03-02T00:00:00Z');
const RETRIES = 3;
const change = queueChange('research', 4, 8);
const workloads = [
  batch({ name: 'nightly-eval', selector: { namespace: 'eval' } }),
  service({ name: 'chat', queue: 'research', selector: { namespace: 'chat' } }),
];
const scopes = [scopeForChange(change)!];
const req = { workloads, scopes, at: AT, windowMinutes: 60, rateWindowMinutes: 10 };
// These servers answer the MIG presence probe with a failure or a 1: the MIG queries are asked too.
const planned = planQueries(req, { mig: true });
/** The probe, asked before the planned queries. */
const PROBE = 1;
const noRepo = { label: 'head', read: () => Promise.resolve(null) };

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Retries as the App has them, with waits short enough for a test. */
const source = (url: string) =>
  new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: url }, { retries: RETRIES, backoffMs: 1, maxBackoffMs: 5, timeoutMs: 2000 }));

const unavailable: Handler = (_r, res) => {
  res.writeHead(503, { 'Content-Type': 'text/plain' });
  res.end('upstream down');
};

function expectOneOutage(ev: TelemetryEvidence) {
  const { results } = ev;
  expect(results).toHaveLength(planned.length);
  expect(results.every((r) => r.status === 'missing' && r.reason === 'unavailable')).toBe(true);
  // The probe goes first and paid the retries; every planned query names itself and the failure it stands for.
  expect(ev.mig?.status).toBe('failed');
  const probe = ev.mig?.result;
  expect(probe?.status === 'missing' && probe.message).toContain(`after ${RETRIES + 1} attempt(s)`);
  expect(probe?.status === 'missing' && probe.message).not.toContain('was not asked');
  results.forEach((r) =>
    expect(r.status === 'missing' && r.message).toContain(`was not asked for ${r.query.id}: it had already failed ${MIG_PRESENCE_ID}`),
  );
}

describe('a telemetry source that is down costs one query its retries, not every query', () => {
  it('a 503 on every request: the review sends one query four times instead of each query four times', async () => {
    server = await startServer(unavailable);
    // Without the breaker, as before: every planned query waits out its retries.
    await gatherEvidence(source(server.url), req);
    expect(server.seen).toHaveLength((PROBE + planned.length) * (RETRIES + 1));

    server.seen.length = 0;
    const t = await collectTelemetry(
      { source: source(server.url), at: AT },
      { changes: [change], workloads, windowMinutes: 60, repo: noRepo },
    );
    expect(server.seen).toHaveLength(RETRIES + 1);
    expectOneOutage(t.evidence);
    // Still one line for the reader, naming the real failure.
    expect(t.missing).toHaveLength(1);
    expect(missingWords(t.evidence.outage!).what).toMatch(
      new RegExp(`none of its ${PROBE + planned.length} queries was answered \\(the first: prometheus at .* answered HTTP 503`),
    );
  });

  it('a closed port: one query is refused four times, the rest are not sent', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const t = await collectTelemetry({ source: source(url), at: AT }, { changes: [change], workloads, windowMinutes: 60, repo: noRepo });
    expectOneOutage(t.evidence);
    expect(t.evidence.mig?.result.status === 'missing' && t.evidence.mig.result.message).toMatch(/unreachable \(ECONNREFUSED\)/);
  });

  it('a port that drops every connection: four connections in all', async () => {
    let connections = 0;
    const dropper: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(dropper.address() as AddressInfo).port}`;
      const ev = await gatherEvidence(withCircuitBreaker(source(url)), req);
      expect(connections).toBe(RETRIES + 1);
      expectOneOutage(ev);
    } finally {
      await new Promise<void>((resolve) => dropper.close(() => resolve()));
    }
  });

  it('a rejected query (422) trips nothing: every query is still asked, once', async () => {
    server = await startServer((_r, res) => sendJson(res, 422, { status: 'error', errorType: 'execution', error: 'bad query' }));
    const ev = await gatherEvidence(withCircuitBreaker(source(server.url)), req);
    expect(server.seen).toHaveLength(PROBE + planned.length);
    expect(ev.results.every((r) => r.status === 'missing' && r.reason === 'bad-query')).toBe(true);
    expect(ev.outage).toBeUndefined();
    // The probe could not tell: the MIG queries were asked all the same, and its failure is listed.
    expect(ev.mig?.status).toBe('failed');
    expect(ev.missing).toHaveLength(PROBE + planned.length);
    expect(missingWords(ev.missing[0]!).what).toMatch(/^whether the cluster has MIG devices .*: .*bad query/);
  });

  it("one query past Prometheus's own query timeout trips nothing: the others are answered", async () => {
    const heavy = planned[2]!;
    server = await startServer((r, res) => {
      // What Prometheus sends when a query runs past --query.timeout.
      if (r.params.get('query') === heavy.promql)
        sendJson(res, 503, { status: 'error', errorType: 'timeout', error: 'query timed out in expression evaluation' });
      else sendJson(res, 200, vector([{ metric: {}, value: [AT.getTime() / 1000, '1'] }]));
    });
    const breaker = withCircuitBreaker(source(server.url));
    const ev = await gatherEvidence(breaker, { ...req, concurrency: 1 });
    expect(breaker.trippedBy).toBeNull();
    expect(server.seen).toHaveLength(PROBE + planned.length - 1 + RETRIES + 1);
    expect(ev.results.filter((r) => r.status === 'missing').map((r) => r.query.id)).toEqual([heavy.id]);
    expect(ev.results[2]).toMatchObject({ status: 'missing', reason: 'unavailable', message: match.stringContaining('query timed out') });
  });

  it('a source that fails midway keeps what it answered and asks nothing more', async () => {
    const failing = planned[3]!;
    server = await startServer((r, res) => {
      if (r.params.get('query') === failing.promql) unavailable(r, res);
      else sendJson(res, 200, vector([{ metric: {}, value: [AT.getTime() / 1000, '1'] }]));
    });
    const breaker = withCircuitBreaker(source(server.url));
    // One at a time, so which queries come after the failure is known.
    const ev = await gatherEvidence(breaker, { ...req, concurrency: 1 });
    expect(server.seen).toHaveLength(PROBE + 3 + RETRIES + 1);
    expect(breaker.trippedBy?.query.id).toBe(failing.id);
    expect(ev.results.slice(0, 3).every((r) => r.status === 'ok')).toBe(true);
    const after = ev.results.slice(4);
    expect(after.length).toBeGreaterThan(0);
    for (const r of after)
      expect(r).toMatchObject({
        status: 'missing',
        reason: 'unavailable',
        message: match.stringContaining(`it had already failed ${failing.id}`),
      });
    // Some queries were answered: each missing one is listed on its own, not as an outage.
    expect(ev.outage).toBeUndefined();
    expect(ev.missing).toHaveLength(planned.length - 3);
  });
});
