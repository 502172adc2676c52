import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { gatherEvidence, planQueries } from '../../src/telemetry/gather.js';
import { openCostSettings } from '../../src/telemetry/opencost/client.js';
import { recordSnapshot, replayAllocation } from '../../src/telemetry/record.js';
import { openSource } from '../../src/telemetry/registry.js';
import { scopeForChange } from '../../src/telemetry/scopes.js';
import { SnapshotSource, parseSnapshot } from '../../src/telemetry/snapshot.js';
import { isMigQuery, migPresence, MIG_PRESENCE_ID } from '../../src/telemetry/queries/mig-presence.js';
import { answerKey } from '../../src/telemetry/source.js';
import { batch, queueChange, service } from '../factories.js';
import { CHAT, EVAL, POOLS, startSimulatedPrometheus } from '../helpers/prometheus/index.js';
import type { SimulatedPrometheus } from '../helpers/prometheus/index.js';
import { asking, servedQueries } from './asking-source.js';
import { sendJson, startServer } from './local-server.js';
import type { LocalServer } from './local-server.js';

const TOKEN = 'gather-secret-token-31337';
const allocation = readFileSync(new URL('../reference/telemetry/opencost/allocation-example-output.json', import.meta.url), 'utf8');

const workloads = [
  batch({
    name: 'nightly-eval',
    selector: { namespace: EVAL.namespace },
    outcomes: { verified: 'sum(increase(eval_runs_total{namespace="eval",result="pass"}[1d]))' },
  }),
  service({ name: 'support-chat', pool: POOLS.l4.name, selector: { namespace: CHAT.namespace } }),
  // Documented but not scraped: every query for it must come back as missing evidence.
  batch({ name: 'dark-job', selector: { namespace: 'dark' } }),
];
const scopes = [
  scopeForChange(queueChange('research', 4, 8))!,
  scopeForChange({ ...queueChange(POOLS.a100.name, 8, 16), kind: 'karpenter-nodepool' })!,
];

let prom: SimulatedPrometheus;
let opencost: LocalServer;
let at: Date;
let windowMinutes: number;

beforeAll(async () => {
  prom = await startSimulatedPrometheus();
  opencost = await startServer((_req, res) => sendJson(res, 200, JSON.parse(allocation)));
  at = new Date(prom.window.end * 1000);
  windowMinutes = (prom.window.end - prom.window.start) / 60;
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await opencost?.close();
});

describe('gathering evidence for a review', () => {
  it('plans each query once and answers what the cluster exports', async () => {
    const source = await openSource({ kind: 'prometheus', url: prom.url, settings: { retries: 0 } });
    const req = { workloads, scopes, at, windowMinutes, rateWindowMinutes: 15, concurrency: 4 };
    const planned = planQueries(req);
    expect(new Set(planned.map((q) => q.id)).size).toBe(planned.length);
    const ev = await gatherEvidence(source, req);
    expect(ev.results.map((r) => r.query.id)).toEqual(planned.map((q) => q.id));
    for (const id of [
      'kueue.nominal-quota:queue:research',
      'ksm.gpu-allocatable:pool:a100-pool',
      'dcgm.gpu-util:workload:nightly-eval',
      'dcgm.sm-activity:workload:support-chat',
      'vllm.e2e-p95:workload:support-chat',
      'outcomes.verified:workload:nightly-eval',
    ])
      expect(ev.answers.has(id), id).toBe(true);
    const dark = ev.results.filter((r) => r.query.id.endsWith(':workload:dark-job'));
    expect(dark.length).toBeGreaterThan(0);
    expect(dark.every((r) => r.status === 'missing' && r.reason === 'no-data')).toBe(true);
    expect(ev.missing.length).toBe(ev.results.length - ev.answers.size);
  });

  it('records a snapshot that replays the same answers with no network and no credentials', async () => {
    const source = await openSource({
      kind: 'prometheus',
      url: prom.url,
      env: { PROMETHEUS_BEARER_TOKEN: TOKEN },
      settings: { retries: 0 },
    });
    const snapshot = await recordSnapshot({
      source,
      workloads,
      scopes,
      at,
      windowMinutes,
      rateWindowMinutes: 15,
      opencost: openCostSettings(opencost.url),
    });
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain(TOKEN);

    const replay = new SnapshotSource(parseSnapshot(text, 'snap.json'), 'snapshot snap.json');
    const req = { workloads, scopes, at, windowMinutes, rateWindowMinutes: 15 };
    const replayed = await gatherEvidence(replay, req);
    // Every recorded answer is asked again: the MIG presence probe, then the planned queries.
    expect(replayed.results).toHaveLength(Object.keys(snapshot.answers).length - 1);
    expect(snapshot.answers[answerKey(migPresence({ windowMinutes }), at, windowMinutes)]).toMatchObject({ status: 'ok' });
    expect(replayed.mig?.status).toBe('none');
    for (const r of replayed.results) {
      const { source: recordedFrom, ...recorded } = snapshot.answers[answerKey(r.query, at, windowMinutes)]!;
      const { source: replayedFrom, ...answer } = r;
      expect(answer).toEqual(recorded);
      expect(replayedFrom).toBe(`${recordedFrom} (recorded in snapshot snap.json)`);
      expect(recordedFrom).toBe(`prometheus at ${prom.url}`);
    }
    expect(replayed.answers.size).toBeGreaterThan(20);

    const cost = replayAllocation(parseSnapshot(text, 'snap.json'), at, windowMinutes, 'namespace');
    expect(cost.status === 'ok' && cost.allocations.map((a) => a.key)).toEqual(['kube-system', 'opencost', 'prometheus']);
    expect(replayAllocation(snapshot, at, 60, 'namespace')).toMatchObject({ status: 'missing', reason: 'not-in-snapshot' });
  });
});

describe('the MIG presence probe on a cluster without MIG', () => {
  const req = () => ({ workloads, scopes, at, windowMinutes, rateWindowMinutes: 15 });

  it('asks one probe, then the planned queries without the MIG family; Prometheus serves no MIG query', async () => {
    const live = await openSource({ kind: 'prometheus', url: prom.url, settings: { retries: 0 } });
    const { source, asked } = asking(live);
    const before = await servedQueries(prom.url);
    const ev = await gatherEvidence(source, req());
    expect(await servedQueries(prom.url)).toBe(before + asked.length);
    const planned = planQueries(req());
    expect(asked.map((q) => q.id)).toEqual([MIG_PRESENCE_ID, ...planned.map((q) => q.id)]);
    expect(asked.filter(isMigQuery)).toEqual([]);
    expect(ev.mig?.status).toBe('none');
    expect(ev.results.map((r) => r.query.id)).toEqual(planned.map((q) => q.id));
    // Not asked: the MIG family of the pool, the queue and the workloads with selectors.
    const skipped = planQueries(req(), { mig: true }).filter(isMigQuery);
    expect(skipped.map((q) => q.id)).toContain('dcgm.mig-pods:pool:a100-pool');
    expect(skipped.map((q) => q.id)).toContain('kueue.mig-usage:queue:research');
    // The probe's text is a small part of what it spares.
    expect(asked[0]!.promql.length * 10).toBeLessThan(skipped.reduce((n, q) => n + q.promql.length, 0));
    // A "no" is an answer: nothing is missing for it.
    expect(ev.missing.length).toBe(ev.results.length - ev.answers.size);
  });

  it('a probe that cannot tell: the MIG queries are asked all the same, and its failure is listed', async () => {
    const live = await openSource({ kind: 'prometheus', url: prom.url, settings: { retries: 0 } });
    const { source, asked } = asking(live, { failProbe: true });
    const ev = await gatherEvidence(source, req());
    expect(ev.mig?.status).toBe('failed');
    expect(asked.slice(1).map((q) => q.id)).toEqual(planQueries(req(), { mig: true }).map((q) => q.id));
    expect(ev.missing[0]).toEqual({
      what: match.stringMatching(/^whether the cluster has MIG devices .*: .*rejected mig\.presence:cluster/),
      how: match.stringContaining('the MIG queries were asked all the same'),
    });
    expect(ev.missing.length).toBe(1 + ev.results.length - ev.answers.size);
    expect(ev.outage).toBeUndefined();
  });

  it('a snapshot without the probe (recorded before it) replays as no MIG known, with nothing more missing', async () => {
    const live = await openSource({ kind: 'prometheus', url: prom.url, settings: { retries: 0 } });
    const snapshot = await recordSnapshot({ source: live, ...req() });
    const probeKey = answerKey(migPresence({ windowMinutes }), at, windowMinutes);
    const fresh = await gatherEvidence(new SnapshotSource(snapshot), req());

    const old = structuredClone(snapshot);
    delete old.answers[probeKey];
    const { source, asked } = asking(new SnapshotSource(old));
    const replayed = await gatherEvidence(source, req());
    expect(replayed.mig?.status).toBe('not-recorded');
    expect(asked.slice(1).filter(isMigQuery)).toEqual([]);
    expect(replayed.results.map((r) => r.query.id)).toEqual(fresh.results.map((r) => r.query.id));
    expect(replayed.missing).toEqual(fresh.missing);
    expect(replayed.outage).toBeUndefined();
  });
});
