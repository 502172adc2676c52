import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_KINDS, openSource } from '../../src/telemetry/registry.js';
import type { SourceSpec } from '../../src/telemetry/registry.js';
import { RecordingSource, writeSnapshot } from '../../src/telemetry/snapshot.js';
import { gpuUtil, vllmE2eLatency } from '../../src/telemetry/queries/index.js';
import type { NamedQuery } from '../../src/telemetry/queries/index.js';
import type { TelemetrySource } from '../../src/telemetry/source.js';
import { CHAT, startSimulatedPrometheus } from '../helpers/prometheus/index.js';
import type { SimulatedPrometheus } from '../helpers/prometheus/index.js';

const TOKEN = 'contract-secret-token-77';
const chat = { kind: 'workload' as const, name: 'support-chat', selector: { namespace: CHAT.namespace } };
const ghost = { kind: 'workload' as const, name: 'ghost', selector: { namespace: 'nowhere' } };

let prom: SimulatedPrometheus;
let dir: string;
let at: Date;
let windowMinutes: number;
let queries: NamedQuery[];
const specs = {} as { [K in SourceSpec['kind']]: SourceSpec };

beforeAll(async () => {
  prom = await startSimulatedPrometheus();
  dir = await mkdtemp(join(tmpdir(), 'gpu-justify-snap-'));
  at = new Date(prom.window.end * 1000);
  windowMinutes = (prom.window.end - prom.window.start) / 60;
  queries = [gpuUtil(chat), vllmE2eLatency(chat, { windowMinutes }), gpuUtil(ghost)];

  specs.prometheus = { kind: 'prometheus', url: prom.url, env: { PROMETHEUS_BEARER_TOKEN: TOKEN }, settings: { retries: 0 } };
  // The snapshot is what the live source answered, recorded once.
  const recorder = new RecordingSource(await openSource(specs.prometheus));
  for (const q of queries) await recorder.query(q, at, windowMinutes);
  specs.snapshot = { kind: 'snapshot', file: join(dir, 'snapshot.json') };
  await writeSnapshot(specs.snapshot.file, recorder.snapshot);
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(Object.keys(SOURCE_KINDS) as SourceSpec['kind'][])('telemetry source %s', (kind) => {
  let source: TelemetrySource;
  beforeAll(async () => {
    source = await openSource(specs[kind]);
  });

  it('answers a query with numbers, echoing the query and naming itself without credentials', async () => {
    const r = await source.query(queries[0]!, at, windowMinutes);
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    expect(r.query).toBe(queries[0]);
    expect(r.series[0]!.samples.length).toBeGreaterThan(100);
    expect(r.source).toContain(prom.url);
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  });

  it('gives the same numbers as every other source', async () => {
    const live = await (await openSource(specs.prometheus)).query(queries[1]!, at, windowMinutes);
    const mine = await source.query(queries[1]!, at, windowMinutes);
    if (mine.status !== 'ok' || live.status !== 'ok') throw new Error('both sources should answer');
    expect(mine.series.map((s) => s.labels)).toEqual(live.series.map((s) => s.labels));
    // Prometheus may sum series in any order: equal up to float rounding.
    expect(mine.series[0]!.samples[0]!.v).toBeCloseTo(live.series[0]!.samples[0]!.v, 9);
  });

  it('answers a query with no data as missing evidence naming the source and the query', async () => {
    const r = await source.query(queries[2]!, at, windowMinutes);
    expect(r).toMatchObject({ status: 'missing', reason: 'no-data', query: queries[2] });
    expect(r.status === 'missing' && r.message).toContain('dcgm.gpu-util:workload:ghost');
  });

  it('never throws for a question it cannot answer', async () => {
    const elsewhere = new Date(at.getTime() - 3_600_000);
    const r = await source.query(queries[0]!, elsewhere, 60);
    expect(['ok', 'missing']).toContain(r.status);
    if (!SOURCE_KINDS[kind].live) {
      expect(r).toMatchObject({ status: 'missing', reason: 'not-in-snapshot' });
      expect(r.status === 'missing' && r.message).toMatch(/holds no answer for dcgm\.gpu-util:workload:support-chat/);
    }
  });
});

describe('snapshot files', () => {
  it('hold no credentials', async () => {
    const text = await readFile(specs.snapshot.kind === 'snapshot' ? specs.snapshot.file : '', 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('"format": "gpu-justify-snapshot"');
  });

  it('are refused clearly when they are not snapshots', async () => {
    const file = join(dir, 'bad.json');
    await writeSnapshot(file, { format: 'other' } as never);
    await expect(openSource({ kind: 'snapshot', file })).rejects.toThrow(/bad\.json: not a gpu-justify snapshot \(format/);
    await expect(openSource({ kind: 'snapshot', file: join(dir, 'none.json') })).rejects.toThrow(/cannot read snapshot/);
  });
});
