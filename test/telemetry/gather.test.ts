import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherEvidence, planQueries } from '../../src/telemetry/gather.js';
import { openCostSettings } from '../../src/telemetry/opencost/client.js';
import { recordSnapshot, replayAllocation } from '../../src/telemetry/record.js';
import { openSource } from '../../src/telemetry/registry.js';
import { scopeForChange } from '../../src/telemetry/scopes.js';
import { SnapshotSource, parseSnapshot } from '../../src/telemetry/snapshot.js';
import { answerKey } from '../../src/telemetry/source.js';
import { batch, queueChange, service } from '../factories.js';
import { CHAT, EVAL, POOLS, startSimulatedPrometheus } from '../helpers/prometheus/index.js';
import type { SimulatedPrometheus } from '../helpers/prometheus/index.js';
import { sendJson, startServer } from './local-server.js';
import type { LocalServer } from './local-server.js';

const TOKEN = 'gather-secret-token-31337';
const allocation = readFileSync(new URL('../../../shared/reference/telemetry/opencost/allocation-example-output.json', import.meta.url), 'utf8');

const workloads = [
  batch({ name: 'nightly-eval', selector: { namespace: EVAL.namespace }, outcomes: { verified: 'sum(increase(eval_runs_total{namespace="eval",result="pass"}[1d]))' } }),
  service({ name: 'support-chat', pool: POOLS.l4.name, selector: { namespace: CHAT.namespace } }),
  // Documented but not scraped: every query for it must come back as missing evidence.
  batch({ name: 'dark-job', selector: { namespace: 'dark' } }),
];
const scopes = [scopeForChange(queueChange('research', 4, 8))!, scopeForChange({ ...queueChange(POOLS.a100.name, 8, 16), kind: 'karpenter-nodepool' })!];

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
  await prom?.stop();
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
      'kueue.nominal-quota:queue:research', 'ksm.gpu-allocatable:pool:a100-pool', 'dcgm.gpu-util:workload:nightly-eval',
      'dcgm.sm-activity:workload:support-chat', 'vllm.e2e-p95:workload:support-chat', 'outcomes.verified:workload:nightly-eval',
    ]) expect(ev.answers.has(id), id).toBe(true);
    const dark = ev.results.filter((r) => r.query.id.endsWith(':workload:dark-job'));
    expect(dark.length).toBeGreaterThan(0);
    expect(dark.every((r) => r.status === 'missing' && r.reason === 'no-data')).toBe(true);
    expect(ev.missing.length).toBe(ev.results.length - ev.answers.size);
  });

  it('records a snapshot that replays the same answers with no network and no credentials', async () => {
    const source = await openSource({ kind: 'prometheus', url: prom.url, env: { PROMETHEUS_BEARER_TOKEN: TOKEN }, settings: { retries: 0 } });
    const snapshot = await recordSnapshot({ source, workloads, scopes, at, windowMinutes, rateWindowMinutes: 15, opencost: openCostSettings(opencost.url) });
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain(TOKEN);

    const replay = new SnapshotSource(parseSnapshot(text, 'snap.json'), 'snapshot snap.json');
    const req = { workloads, scopes, at, windowMinutes, rateWindowMinutes: 15 };
    const replayed = await gatherEvidence(replay, req);
    expect(replayed.results).toHaveLength(Object.keys(snapshot.answers).length);
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
