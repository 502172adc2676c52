import { afterEach, describe, expect, it } from 'vitest';
import {
  TelemetryConfigError,
  TelemetryQueryError,
  TelemetryResponseError,
  TelemetryUnavailableError,
} from '../../src/telemetry/errors.js';
import { PrometheusClient } from '../../src/telemetry/prometheus/client.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import type { PrometheusEnv } from '../../src/telemetry/prometheus/config.js';
import { MAX_POINTS, chooseStep, pointsFor } from '../../src/telemetry/prometheus/step.js';
import { retryAfterMs } from '../../src/telemetry/prometheus/http.js';
import { closedPort, sendJson, startServer, vector } from './local-server.js';
import type { Handler, LocalServer } from './local-server.js';

const TOKEN = 'sekret-token-1234';
const AT = new Date('2026-03-02T00:00:00Z');
let server: LocalServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

async function clientFor(handler: Handler, env: PrometheusEnv = {}, options = {}) {
  server = await startServer(handler);
  const config = prometheusConfig(
    { PROMETHEUS_URL: server.url, ...env },
    { retries: 2, backoffMs: 1, maxBackoffMs: 50, timeoutMs: 2_000, ...options },
  );
  return new PrometheusClient(config);
}

const upVector = vector([{ metric: { __name__: 'up', job: 'node' }, value: [1772409600, '1'] }]);

describe('PrometheusClient', () => {
  it('runs an instant query by GET and ignores keys VictoriaMetrics adds', async () => {
    const client = await clientFor((_req, res) =>
      sendJson(res, 200, { ...upVector, isPartial: false, stats: { seriesFetched: '1', executionTimeMsec: 3 } }),
    );
    const answer = await client.instant('up', AT);
    expect(answer.series).toEqual([{ labels: { __name__: 'up', job: 'node' }, samples: [{ t: 1772409600, v: 1 }] }]);
    expect(server!.seen[0]!.method).toBe('GET');
    expect(server!.seen[0]!.path).toBe('/api/v1/query');
    expect(server!.seen[0]!.params.get('time')).toBe('1772409600');
  });

  it('sends long queries as a form POST', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, upVector), {}, { postAbove: 100 });
    const long = `sum(up{job=~"${'a|'.repeat(100)}b"})`;
    await client.instant(long, AT);
    await client.instant('up', AT);
    expect(server!.seen.map((r) => r.method)).toEqual(['POST', 'GET']);
    expect(server!.seen[0]!.params.get('query')).toBe(long);
    expect(server!.seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('keeps a path prefix and sends the operator headers and a bearer token', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, upVector));
    const client = new PrometheusClient(
      prometheusConfig({
        PROMETHEUS_URL: `${server.url}/prometheus/`,
        PROMETHEUS_BEARER_TOKEN: TOKEN,
        PROMETHEUS_HEADERS: '{"X-Scope-OrgID":"team-a"}',
      }),
    );
    await client.instant('up', AT);
    const seen = server.seen[0]!;
    expect(seen.path).toBe('/prometheus/api/v1/query');
    expect(seen.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(seen.headers['x-scope-orgid']).toBe('team-a');
  });

  it('sends basic auth from PROMETHEUS_BASIC_AUTH', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, upVector), { PROMETHEUS_BASIC_AUTH: 'ops:pa:ss' });
    await client.instant('up', AT);
    expect(server!.seen[0]!.headers['authorization']).toBe(`Basic ${Buffer.from('ops:pa:ss').toString('base64')}`);
  });

  it('runs a range query and reports NaN and +Inf samples instead of passing them on', async () => {
    const client = await clientFor((_req, res) =>
      sendJson(res, 200, {
        status: 'success',
        data: {
          resultType: 'matrix',
          result: [
            {
              metric: { q: 'a' },
              values: [
                [1, '0.5'],
                [2, 'NaN'],
                [3, '+Inf'],
                [4, '-Inf'],
                [5, '2'],
              ],
            },
          ],
        },
        warnings: ['PromQL warning: partial response from store-2'],
      }),
    );
    const answer = await client.range('x', new Date(1000), new Date(5000), 1);
    expect(answer.series[0]!.samples).toEqual([
      { t: 1, v: 0.5 },
      { t: 5, v: 2 },
    ]);
    expect(answer.skipped).toEqual({ nan: 1, inf: 2, blank: 0 });
    expect(answer.warnings).toEqual(['PromQL warning: partial response from store-2']);
    expect(server!.seen[0]!.params.get('step')).toBe('1');
  });

  it('retries a 500 and a 429 (honouring Retry-After), then succeeds', async () => {
    let calls = 0;
    const client = await clientFor((_req, res) => {
      calls++;
      if (calls === 1) return sendJson(res, 500, { status: 'error', error: 'boom' });
      if (calls === 2) return sendJson(res, 429, { status: 'error' }, { 'Retry-After': '0' });
      sendJson(res, 200, upVector);
    });
    const answer = await client.instant('up', AT);
    expect(calls).toBe(3);
    expect(answer.series).toHaveLength(1);
  });

  it('bounds a long Retry-After by the longest backoff', async () => {
    let calls = 0;
    const client = await clientFor((_req, res) => {
      calls++;
      if (calls === 1) return sendJson(res, 503, { status: 'error' }, { 'Retry-After': '3600' });
      sendJson(res, 200, upVector);
    });
    const started = Date.now();
    await client.instant('up', AT);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(retryAfterMs('2')).toBe(2_000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:05 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(5_000);
    expect(retryAfterMs('soon')).toBeNull();
  });

  it('gives up after the retries with a TelemetryUnavailableError', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 503, { status: 'error', error: 'query timed out' }));
    const err = await client.instant('up', AT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TelemetryUnavailableError);
    expect((err as Error).message).toMatch(/answered HTTP 503: query timed out for up, after 3 attempt/);
    expect(server!.seen).toHaveLength(3);
  });

  it.each([
    [
      422,
      { status: 'error', errorType: 'execution', error: 'many-to-many matching not allowed' },
      /rejected bad \(HTTP 422\): many-to-many/,
    ],
    [400, { status: 'error', errorType: 'bad_data', error: 'parse error at char 3' }, /rejected bad \(HTTP 400\): parse error/],
  ])('turns a %i into a TelemetryQueryError without retrying', async (status, body, message) => {
    const client = await clientFor((_req, res) => sendJson(res, status, body));
    const err = await client.instant('bad', AT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TelemetryQueryError);
    expect((err as TelemetryQueryError).query).toBe('bad');
    expect((err as Error).message).toMatch(message);
    expect(server!.seen).toHaveLength(1);
  });

  it('turns an HTML page into a TelemetryResponseError', async () => {
    const client = await clientFor((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html><body>Sign in</body></html>');
    });
    const err = await client.instant('up', AT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TelemetryResponseError);
    expect((err as Error).message).toMatch(/with text\/html, not JSON, for up/);
  });

  it('turns JSON of another shape into a TelemetryResponseError', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, { status: 'success', data: { resultType: 'vector', result: 'x' } }));
    await expect(client.instant('up', AT)).rejects.toBeInstanceOf(TelemetryResponseError);
  });

  it('reports an unreachable host as unavailable', async () => {
    const port = await closedPort();
    const client = new PrometheusClient(prometheusConfig({ PROMETHEUS_URL: `http://127.0.0.1:${port}` }, { retries: 1, backoffMs: 1 }));
    const err = await client.instant('up', AT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TelemetryUnavailableError);
    expect((err as Error).message).toMatch(/unreachable \(ECONNREFUSED\) for up, after 2 attempt/);
  });

  it('times out on a server that never answers', async () => {
    const client = await clientFor(() => {}, {}, { timeoutMs: 200 });
    const started = Date.now();
    const err = await client.instant('up', AT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TelemetryUnavailableError);
    expect((err as Error).message).toMatch(/did not answer within 200 ms for up/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out on a server that sends headers and then stalls', async () => {
    const client = await clientFor(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"status":"succ');
      },
      {},
      { timeoutMs: 200 },
    );
    const err = await client.instant('up', AT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TelemetryUnavailableError);
    expect((err as Error).message).toMatch(/stalled while answering up \(HTTP 200\)/);
  });

  it.each<[string, Handler]>([
    ['a 500 quoting the token', (_req, res) => sendJson(res, 500, { status: 'error', error: `bad token ${TOKEN}` })],
    [
      'a 422 quoting the tenant and the token',
      (_req, res) => sendJson(res, 422, { status: 'error', error: `no tenant tenant-secret-99 for ${TOKEN}` }),
    ],
    [
      'an HTML page holding the token',
      (_req, res) => {
        res.writeHead(200);
        res.end(`<html>${TOKEN}</html>`);
      },
    ],
  ])('never shows the credentials in an error, whatever failed: %s', async (_what, handler) => {
    const secrets = { PROMETHEUS_BEARER_TOKEN: TOKEN, PROMETHEUS_HEADERS: '{"X-Scope-OrgID":"tenant-secret-99"}' };
    const client = await clientFor(handler, secrets);
    const err = (await client.instant(`up{t="${TOKEN}"}`, AT).catch((e: unknown) => e)) as Error & { source: string; query: string };
    const shown = `${err.message} ${err.source} ${err.query} ${err.stack ?? ''} ${JSON.stringify(err)}`;
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain('tenant-secret-99');
    expect(shown).toContain('***');
  });
});

describe('prometheusConfig', () => {
  it.each([
    [{}, /no Prometheus URL: set PROMETHEUS_URL/],
    [{ PROMETHEUS_URL: 'not a url' }, /not a valid absolute URL/],
    [{ PROMETHEUS_URL: 'ftp://x' }, /must use http or https/],
    [{ PROMETHEUS_URL: 'http://p', PROMETHEUS_HEADERS: '{"X-Scope-OrgID": secret-tenant' }, /PROMETHEUS_HEADERS is not valid JSON/],
    [{ PROMETHEUS_URL: 'http://p', PROMETHEUS_HEADERS: '{"X-Org": 5}' }, /header X-Org/],
    [{ PROMETHEUS_URL: 'http://p', PROMETHEUS_HEADERS: '["a"]' }, /must be a JSON object/],
    [{ PROMETHEUS_URL: 'http://p', PROMETHEUS_BASIC_AUTH: 'nocolon-secret' }, /must look like user:password/],
    [{ PROMETHEUS_URL: 'http://p', PROMETHEUS_BASIC_AUTH: 'a:b', PROMETHEUS_BEARER_TOKEN: 'tok-secret' }, /not both/],
  ] as [PrometheusEnv, RegExp][])('refuses %j clearly', (env, message) => {
    let err: unknown;
    try {
      prometheusConfig(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TelemetryConfigError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toMatch(/secret/);
  });

  it('moves credentials out of the URL', () => {
    const config = prometheusConfig({ PROMETHEUS_URL: 'https://bob:hunter22@prom.example/prometheus?x=1' });
    expect(config.url.href).toBe('https://prom.example/prometheus');
    expect(config.headers['Authorization']).toBe(`Basic ${Buffer.from('bob:hunter22').toString('base64')}`);
    expect(config.secrets).toContain('hunter22');
  });
});

describe('chooseStep', () => {
  it.each([
    [3_600, 60],
    [14 * 86_400, 120],
    [90 * 86_400, 900],
    [5 * 365 * 86_400, 21_600],
  ])('keeps a %is range within the point limit (step %i)', (span, step) => {
    expect(chooseStep(0, span)).toBe(step);
    expect(pointsFor(0, span, chooseStep(0, span))).toBeLessThanOrEqual(MAX_POINTS);
  });

  it('refuses to send a range query over the limit', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, upVector));
    await expect(client.range('up', new Date(0), new Date(20_000_000), 1)).rejects.toThrow(/would return 20001 points/);
    expect(server!.seen).toHaveLength(0);
  });
});
