import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReview, Policy, ReviewResult } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { runReview } from '../../src/review/index.js';
import { telemetryFromEnv } from '../../src/telemetry/from-env.js';
import { CHAT, DAY, POOLS, startSimulatedPrometheus } from '../helpers/prometheus/index.js';
import type { SimulatedPrometheus } from '../helpers/prometheus/index.js';
import { memoryChangeSet } from '../memory-change-set.js';
import { l4Pool } from './capacity-files.js';
import { closedPort, sendJson, startServer } from '../telemetry/local-server.js';
import type { LocalServer } from '../telemetry/local-server.js';
import { missingWords } from '../../src/report/missing-words.js';
import { costNoteText } from '../../src/report/findings.js';

const WINDOW = 2 * 24 * 60;
const HOURS = WINDOW / 60;
/** L4 list price in the catalog; OpenCost's node price below differs, so the number tells which was used. */
const LIST_PRICE = 0.85;
const OPENCOST_PRICE = 1.1;
/** What OpenCost charges namespace chat over the window: 4 GPUs all window at its own price. */
const OPENCOST_GPU_COST = CHAT.pods.length * HOURS * OPENCOST_PRICE;

/**
 * OpenCost's allocation response as a real server sends it (the recorded example), with a GPU
 * namespace added in the same shape: one allocation set keyed by namespace.
 */
function allocationBody(): unknown {
  const recorded = JSON.parse(
    readFileSync(new URL('../reference/telemetry/opencost/allocation-example-output.json', import.meta.url), 'utf8'),
  ) as {
    data: Record<string, Record<string, unknown>>[];
  };
  const set = recorded.data[0]!;
  const template = set['kube-system']!;
  set[CHAT.namespace] = {
    ...template,
    name: CHAT.namespace,
    properties: { cluster: 'default-cluster', namespace: CHAT.namespace },
    gpuCount: CHAT.pods.length,
    gpuHours: CHAT.pods.length * HOURS,
    gpuCost: OPENCOST_GPU_COST,
    totalCost: OPENCOST_GPU_COST + 12.5,
  };
  return recorded;
}

let prom: SimulatedPrometheus;
let at: Date;
let opencost: LocalServer;
let failing: LocalServer;

beforeAll(async () => {
  const end = Math.floor(Date.now() / 1000 / DAY) * DAY;
  prom = await startSimulatedPrometheus({ start: end - 2 * DAY, end, step: 120 });
  at = new Date(prom.window.end * 1000);
  const body = allocationBody();
  opencost = await startServer((req, res) =>
    req.path === '/allocation' ? sendJson(res, 200, body) : sendJson(res, 404, { code: 404, message: 'not found' }),
  );
  failing = await startServer((_req, res) => sendJson(res, 500, { code: 500, message: 'Error: prometheus query failed' }));
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await opencost?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await failing?.close();
});

const chatLoadTest = readFileSync(new URL('../../fixtures/loadtests/guidellm-chat-l4.json', import.meta.url), 'utf8');
const altLoadTest = JSON.stringify({
  request_rate: 10,
  request_throughput: 9.5,
  completed: 1000,
  failed: 2,
  p95_e2el_ms: 1500,
  p95_ttft_ms: 120,
});

const catalog = `workloads:
  - name: support-chat
    type: inference
    pool: ${POOLS.l4.name}
    model: ${CHAT.model}
    gpusPerReplica: 1
    replicas: 4
    slo: { p95LatencyMs: 2000, ttftP95Ms: 500, errorRate: 0.01 }
    selector: { namespace: ${CHAT.namespace} }
    outcomes:
      verified: sum(increase(vllm:request_success_total{namespace="chat",finished_reason="stop"}[2d]))
      total: sum(increase(vllm:request_success_total{namespace="chat"}[2d]))
    quality: 0.9
    qualityThreshold: 0.85
    loadTest: loadtests/chat-l4.json
    alternatives:
      - name: chat-3b
        model: llama-3.2-3b-instruct
        gpusPerReplica: 1
        quality: 0.88
        loadTest: loadtests/chat-3b.jsonl
`;

/** A review with the operator's telemetry as the App reads it: PROMETHEUS_URL and OPENCOST_URL. */
async function review(opencostUrl: string): Promise<ChangeReview> {
  const policy: Policy = { ...DEFAULT_POLICY, window: WINDOW };
  const telemetry = telemetryFromEnv({ PROMETHEUS_URL: prom.url, OPENCOST_URL: opencostUrl })(policy);
  expect(telemetry?.allocation).toBeDefined();
  const common = { 'gpu-workloads.yaml': catalog, 'loadtests/chat-l4.json': chatLoadTest, 'loadtests/chat-3b.jsonl': altLoadTest };
  const result: ReviewResult = await runReview({
    changes: memoryChangeSet({ ...common, 'pools/l4.yaml': l4Pool(4) }, { ...common, 'pools/l4.yaml': l4Pool(8) }),
    policy: { policy, diagnostics: [], file: null },
    // The simulated cluster's two days end at the last midnight, not now.
    telemetry: { ...telemetry!, at },
  });
  expect(result.reviews).toHaveLength(1);
  return result.reviews[0]!;
}

const current = (r: ChangeReview) => r.costs?.find((c) => c.workload === 'support-chat' && c.option === 'current');
const cheaper = (r: ChangeReview) => r.findings.find((f) => f.lever === 'cheaper-model');

describe('cost per verified outcome from OpenCost, end to end', () => {
  it("uses OpenCost's GPU cost for the service's namespace over the review's window", async () => {
    const r = await review(opencost.url);
    const cost = current(r);
    expect(cost?.usdOverWindow).toBeCloseTo(OPENCOST_GPU_COST, 6);
    expect(cost?.note).toEqual({ code: 'opencost' });
    expect(cost?.usdPerVerifiedOutcome).toBeCloseTo(OPENCOST_GPU_COST / cost!.verifiedOutcomes!, 12);
    expect(cost?.evidence).toContainEqual({
      source: 'opencost',
      ref: `allocation aggregate=namespace ${CHAT.namespace}: gpuCost`,
      window: `${WINDOW}m to ${at.toISOString()}`,
    });
    expect(cheaper(r)?.evidence.map((e) => e.source)).toContain('opencost');
    expect(r.missingEvidence).toEqual([]);
    // Asked once, per namespace, for exactly the review's window.
    const asked = opencost.seen.filter((s) => s.path === '/allocation');
    expect(asked.length).toBeGreaterThan(0);
    const start = new Date(at.getTime() - WINDOW * 60_000).toISOString().replace('.000', '');
    expect(asked.at(-1)?.params.get('window')).toBe(`${start},${at.toISOString().replace('.000', '')}`);
    expect(asked.at(-1)?.params.get('aggregate')).toBe('namespace');
  });

  it('falls back to the price catalog and lists OpenCost as missing when it fails or is unreachable', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    for (const url of [failing.url, down]) {
      const r = await review(url);
      const cost = current(r);
      // 4 GPUs requested all window at the L4 list price.
      expect(cost?.usdOverWindow).toBeCloseTo(CHAT.pods.length * HOURS * LIST_PRICE, 0);
      expect(costNoteText(cost!.note)).toMatch(/GPU-hours requested × \$0\.85\/GPU-hour$/);
      expect(cost?.evidence.map((e) => e.source)).not.toContain('opencost');
      const lack = r.missingEvidence.find((m) => missingWords(m).what.startsWith('GPU cost from OpenCost'));
      expect(missingWords(lack!).what).toContain(url === down ? 'unreachable' : 'HTTP 500');
      expect(missingWords(lack!).how).toContain('OPENCOST_URL');
      expect(r.confidence).toBe('medium');
    }
  }, 30_000);
});
