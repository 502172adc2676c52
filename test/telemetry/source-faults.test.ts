import { afterEach, describe, expect, it } from 'vitest';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { fbUsed, outcomeQueries } from '../../src/telemetry/queries/index.js';
import { toMissingEvidence } from '../../src/telemetry/source.js';
import type { MissingReason } from '../../src/telemetry/source.js';
import { closedPort, sendJson, startServer, vector } from './local-server.js';
import type { Handler, LocalServer } from './local-server.js';
import { missingWords } from '../../src/report/missing-words.js';

const TOKEN = 'fault-secret-token-5150';
const AT = new Date('2026-03-02T00:00:00Z');
const [verified] = outcomeQueries('nightly-eval', { verified: 'sum(increase(eval_runs_total{result="pass"}[1d]))' });
let server: LocalServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

const html: Handler = (_r, res) => {
  res.writeHead(502, { 'Content-Type': 'text/html' });
  res.end('<html>Bad gateway</html>');
};

describe('faults become missing evidence naming the source and the query', () => {
  it.each<[string, Handler | 'closed', MissingReason, RegExp]>([
    ['an unreachable host', 'closed', 'unavailable', /unreachable \(ECONNREFUSED\)/],
    ['a server that never answers', () => {}, 'unavailable', /did not answer within 300 ms/],
    [
      'a 500 on every attempt',
      (_r, res) => sendJson(res, 500, { status: 'error', error: 'internal' }),
      'unavailable',
      /HTTP 500: internal/,
    ],
    [
      'a 422',
      (_r, res) =>
        sendJson(res, 422, { status: 'error', errorType: 'execution', error: 'vector cannot contain metrics with the same labelset' }),
      'bad-query',
      /HTTP 422/,
    ],
    ['an HTML error page', html, 'unavailable', /HTTP 502/],
    [
      'HTML with a 200',
      (_r, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html/>');
      },
      'bad-response',
      /text\/html, not JSON/,
    ],
    [
      'only NaN and +Inf samples',
      (_r, res) =>
        sendJson(
          res,
          200,
          vector([
            { metric: { a: '1' }, value: [1, 'NaN'] },
            { metric: { a: '2' }, value: [1, '+Inf'] },
          ]),
        ),
      'not-finite',
      /every sample was unusable \(1 NaN, 1 infinite, 0 DCGM blank\)/,
    ],
    ['an empty result', (_r, res) => sendJson(res, 200, vector([])), 'no-data', /no series matched/],
  ])('%s', async (_name, handler, reason, message) => {
    let url: string;
    if (handler === 'closed') url = `http://127.0.0.1:${await closedPort()}`;
    else url = (server = await startServer(handler)).url;
    const source = new PrometheusSource(
      prometheusConfig({ PROMETHEUS_URL: url, PROMETHEUS_BEARER_TOKEN: TOKEN }, { retries: 1, backoffMs: 1, timeoutMs: 300 }),
    );
    const r = await source.query(verified!, AT, 1440);
    expect(r).toMatchObject({ status: 'missing', reason, source: `prometheus at ${url}`, query: verified });
    if (r.status !== 'missing') return;
    expect(r.message).toMatch(message);
    expect(r.message).toContain('outcomes.verified:workload:nightly-eval');
    expect(JSON.stringify(r)).not.toContain(TOKEN);
    expect(missingWords(toMissingEvidence(r)).how).toMatch(/outcomes in the catalog entry of nightly-eval/);
  });

  it('reads DCGM blank values as missing, not as 9.22e18 MiB', async () => {
    server = await startServer((_r, res) =>
      sendJson(res, 200, {
        status: 'success',
        data: {
          resultType: 'matrix',
          result: [
            {
              metric: {},
              values: [
                [1, '9223372036854775794'],
                [2, '9223372036854775794'],
              ],
            },
          ],
        },
      }),
    );
    const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: server.url }, { retries: 0 }));
    const r = await source.query(fbUsed({ kind: 'workload', name: 'w', selector: { namespace: 'x' } }), AT, 60);
    expect(r).toMatchObject({ status: 'missing', reason: 'no-data' });
    expect(r.status === 'missing' && r.message).toMatch(/0 NaN, 0 infinite, 2 DCGM blank/);
  });
});
