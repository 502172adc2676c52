import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchAllocation, openCostSettings } from '../../src/telemetry/opencost/client.js';
import type { AllocationQuery } from '../../src/telemetry/opencost/client.js';
import { closedPort, sendJson, startServer } from './local-server.js';
import type { Handler, LocalServer } from './local-server.js';

const REF = new URL('../reference/telemetry/opencost', import.meta.url).pathname;
const recorded = (file: string) =>
  JSON.parse(readFileSync(`${REF}/${file}`, 'utf8')) as { data: Record<string, Record<string, unknown>>[] };
const Q: AllocationQuery = { at: new Date('2023-07-19T11:02:46Z'), windowMinutes: 7 * 24 * 60, aggregate: 'namespace' };

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function fetchFrom(handler: Handler, q = Q) {
  server = await startServer(handler);
  return fetchAllocation(openCostSettings(server.url, { retries: 1, backoffMs: 1, timeoutMs: 500 }), q);
}

describe('OpenCost allocation client', () => {
  it.each(['allocation-example-output.json', 'swagger-allocation-compute-example.json'])('reads the recorded response %s', async (file) => {
    const body = recorded(file);
    const r = await fetchFrom((_req, res) => sendJson(res, 200, body));
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    const set = body.data[0]!;
    expect(r.allocations.map((a) => a.key)).toEqual(Object.keys(set));
    for (const a of r.allocations) {
      expect(a).toEqual({
        key: a.key,
        gpuHours: set[a.key]!['gpuHours'],
        gpuCost: set[a.key]!['gpuCost'],
        totalCost: set[a.key]!['totalCost'],
        minutes: set[a.key]!['minutes'],
      });
    }
    const seen = server!.seen[0]!;
    expect(seen.path).toBe('/allocation');
    expect(Object.fromEntries(seen.params)).toEqual({
      window: '2023-07-12T11:02:46Z,2023-07-19T11:02:46Z',
      aggregate: 'namespace',
      accumulate: 'true',
    });
  });

  it('keeps GPU hours and cost, reads null (NaN upstream) as unknown, and adds up several sets', async () => {
    // The recorded shape with a GPU namespace added, as a newer OpenCost reports one.
    const body = recorded('allocation-example-output.json');
    const base = body.data[0]!['kube-system']!;
    const gpu = (hours: number, cost: number | null) => ({
      ...base,
      name: 'eval',
      gpuCount: 4,
      gpuHours: hours,
      gpuCost: cost,
      totalCost: cost === null ? null : cost + 1,
      gpuAllocation: { gpuModel: 'A100' },
    });
    body.data = [{ eval: gpu(96, 288) }, { eval: gpu(24, 72), other: gpu(1, null) }];
    const r = await fetchFrom((_req, res) => sendJson(res, 200, body), { ...Q, aggregate: 'label:app' });
    expect(r.status === 'ok' && r.allocations).toEqual([
      { key: 'eval', gpuHours: 120, gpuCost: 360, totalCost: 362, minutes: 2 * (base['minutes'] as number) },
      { key: 'other', gpuHours: 1, gpuCost: null, totalCost: null, minutes: base['minutes'] },
    ]);
    expect(server!.seen[0]!.params.get('aggregate')).toBe('label:app');
  });

  it.each<[string, Handler | 'closed', string, RegExp]>([
    [
      'an error code in the body',
      (_r, res) => sendJson(res, 200, { code: 400, message: 'Error: invalid window' }),
      'bad-query',
      /code 400 for allocation aggregate=namespace.*invalid window/,
    ],
    [
      'a 500',
      (_r, res) => sendJson(res, 500, { code: 500, message: 'Error: prometheus down' }),
      'unavailable',
      /HTTP 500: Error: prometheus down/,
    ],
    [
      'HTML',
      (_r, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html/>');
      },
      'bad-response',
      /not JSON/,
    ],
    ['no allocations', (_r, res) => sendJson(res, 200, { code: 200, data: [{}] }), 'no-data', /no allocations/],
    ['an unreachable host', 'closed', 'unavailable', /unreachable/],
  ])('turns %s into missing evidence', async (_name, handler, reason, message) => {
    const r =
      handler === 'closed'
        ? await fetchAllocation(openCostSettings(`http://127.0.0.1:${await closedPort()}`, { retries: 0 }), Q)
        : await fetchFrom(handler);
    expect(r).toMatchObject({ status: 'missing', reason });
    expect(r.status === 'missing' && r.message).toMatch(message);
    expect(r.source).toMatch(/^opencost at http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses an aggregate that is not namespace or label:<name>', async () => {
    const r = await fetchAllocation(openCostSettings('http://127.0.0.1:9'), { ...Q, aggregate: 'label:a b' });
    expect(r).toMatchObject({ status: 'missing', reason: 'bad-query' });
  });

  it('says how to configure a missing URL', () => {
    expect(() => openCostSettings(undefined)).toThrow(/set OPENCOST_URL or pass --opencost/);
  });
});
