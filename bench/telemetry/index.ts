import type { CapacityChange, TreeReader, Workload } from '../../src/domain/index.js';
import { collectTelemetry } from '../../src/telemetry/collect.js';
import { gatherEvidence, planQueries } from '../../src/telemetry/gather.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { REVIEW_STEP_SECONDS } from '../../src/telemetry/collect.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { scopeForChange } from '../../src/telemetry/scopes.js';
import type { Scope } from '../../src/telemetry/queries/named-query.js';
import { batch, queueChange, service } from '../../test/factories.js';
import { CHAT, EVAL, POOLS, TRAIN, startSimulatedPrometheus } from '../../test/helpers/prometheus/index.js';
import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { fmt, HeapSampler, median, memoryReport, quantile, table, timed } from '../lib/measure.js';
import { startCountingProxy } from './counting-proxy.js';

const CONCURRENCY = [1, 4, 8] as const;
const ROUNDS = 7;

/** Ten catalog workloads over the simulated cluster's namespaces, one of them not scraped at all. */
const WORKLOADS: Workload[] = [
  batch({
    name: 'nightly-eval',
    queue: 'research',
    selector: { namespace: EVAL.namespace },
    outcomes: { verified: 'sum(increase(eval_runs_total{namespace="eval",result="pass"}[1d]))' },
  }),
  batch({ name: 'eval-canary', queue: 'research', selector: { namespace: EVAL.namespace } }),
  batch({ name: 'eval-regression', queue: 'research', selector: { namespace: EVAL.namespace } }),
  { ...batch({ name: 'pretrain', queue: 'training', selector: { namespace: TRAIN.namespace } }), type: 'training' },
  { ...batch({ name: 'finetune', queue: 'training', selector: { namespace: TRAIN.namespace } }), type: 'training' },
  service({ name: 'support-chat', pool: POOLS.l4.name, selector: { namespace: CHAT.namespace } }),
  service({ name: 'chat-canary', pool: POOLS.l4.name, selector: { namespace: CHAT.namespace } }),
  service({ name: 'chat-shadow', pool: POOLS.l4.name, selector: { namespace: CHAT.namespace } }),
  service({ name: 'summariser', pool: POOLS.l4.name, selector: { namespace: CHAT.namespace } }),
  batch({ name: 'dark-job', queue: 'research', selector: { namespace: 'dark' } }),
];

const CHANGES: CapacityChange[] = [queueChange('research', 8, 16), { ...queueChange(POOLS.l4.name, 4, 8), kind: 'karpenter-nodepool' }];

/** Prometheus' own CPU seconds, from its /metrics page (it need not scrape itself for this). */
async function promCpuSeconds(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^process_cpu_seconds_total ([0-9.e+]+)$/m.exec(text);
  if (!m?.[1]) throw new Error('process_cpu_seconds_total missing from Prometheus /metrics');
  return Number(m[1]);
}

const emptyRepo: TreeReader = { label: 'head', read: () => Promise.resolve(null) };

async function run(): Promise<BenchResult> {
  const sampler = new HeapSampler();
  const started = await timed(() => startSimulatedPrometheus());
  const prom = started.value;
  const proxy = await startCountingProxy(prom.url);
  try {
    // As the App and the CLI ask: range queries at the review's step.
    const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: proxy.url }, { retries: 0 }), {
      minStepSeconds: REVIEW_STEP_SECONDS,
    });
    const at = new Date(prom.window.end * 1000);
    const windowMinutes = (prom.window.end - prom.window.start) / 60;
    const scopes = CHANGES.map(scopeForChange).filter((s): s is Exclude<Scope, { kind: 'workload' }> => s !== null);
    const planned = planQueries({ workloads: WORKLOADS, scopes, windowMinutes });

    // One whole review's telemetry, as the pipeline asks for it (warms Prometheus too).
    proxy.reset();
    const review = await timed(() =>
      collectTelemetry({ source, at }, { changes: CHANGES, workloads: WORKLOADS, windowMinutes, repo: emptyRepo }),
    );
    const perReview = { requests: proxy.requests, bytesIn: proxy.bytesIn, bytesOut: proxy.bytesOut };
    const answered = review.value.evidence.answers.size;
    const ranges = planned.filter((q) => q.kind !== 'instant').length;
    sampler.mark();

    // Concurrency caps, interleaved round by round so drift on a shared machine hits each alike.
    const times = new Map<number, number[]>(CONCURRENCY.map((c) => [c, []]));
    const clientCpu = new Map<number, number[]>(CONCURRENCY.map((c) => [c, []]));
    const upstream = new Map<number, number[]>(CONCURRENCY.map((c) => [c, []]));
    const promCpu = new Map<number, number[]>(CONCURRENCY.map((c) => [c, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of CONCURRENCY) {
        proxy.reset();
        const promBefore = await promCpuSeconds(prom.url);
        const cpu = process.cpuUsage();
        const r = await timed(() => gatherEvidence(source, { workloads: WORKLOADS, scopes, at, windowMinutes, concurrency: c }));
        const used = process.cpuUsage(cpu);
        clientCpu.get(c)?.push((used.user + used.system) / 1000);
        upstream.get(c)?.push(proxy.upstreamMs);
        promCpu.get(c)?.push(1000 * ((await promCpuSeconds(prom.url)) - promBefore));
        if (r.value.answers.size !== answered) throw new Error(`concurrency ${c}: ${r.value.answers.size} answers, expected ${answered}`);
        times.get(c)?.push(r.ms);
        sampler.mark();
      }
    }
    const base = median(times.get(1) ?? []);
    const rows = CONCURRENCY.map((c) => {
      const t = times.get(c) ?? [];
      return [
        c,
        fmt(median(t), 1),
        `${fmt(quantile(t, 0))} … ${fmt(quantile(t, 1))}`,
        fmt(median(t) / base, 2),
        `${fmt(base / median(t), 2)}×`,
        fmt(median(clientCpu.get(c) ?? []), 0),
        fmt(median(promCpu.get(c) ?? []), 0),
        fmt(median(upstream.get(c) ?? []), 0),
      ];
    });

    const markdown = [
      `### telemetry: one review of ${WORKLOADS.length} workloads and ${CHANGES.length} changed scopes against a real Prometheus on loopback`,
      '',
      `Prometheus (Debian's \`prometheus\`, TSDB backfilled with promtool with the simulated cluster's ${fmt(windowMinutes / 60 / 24, 0)} days at 5-minute samples) started in ${fmt(started.ms / 1000, 1)} s. Bytes are counted by a loopback proxy between the client and Prometheus (bodies only, headers excluded).`,
      '',
      table(
        ['figure', 'value'],
        [
          ['queries planned (range / instant)', `${planned.length} (${ranges} / ${planned.length - ranges})`],
          ['HTTP requests to Prometheus per review (`collectTelemetry`)', perReview.requests],
          ['answered / missing', `${answered} / ${review.value.missing.length}`],
          [
            'bytes fetched per review (response bodies)',
            `${fmt(perReview.bytesIn / 1024, 1)} KiB (${fmt(perReview.bytesIn / perReview.requests / 1024, 2)} KiB per request)`,
          ],
          ['bytes sent per review (request bodies, POSTs only)', `${fmt(perReview.bytesOut / 1024, 1)} KiB`],
          ['time for that review (first, cold)', `${fmt(review.ms, 1)} ms`],
        ],
      ),
      '',
      `\`gatherEvidence\` for the same review at each concurrency cap, ${ROUNDS} rounds interleaved:`,
      '',
      table(
        [
          'concurrency',
          'median ms',
          'min … max ms',
          'time ÷ concurrency 1',
          'speed-up',
          'client-process CPU ms (median)',
          'Prometheus CPU ms (median)',
          'Σ request latency at the proxy ms (median)',
        ],
        rows,
      ),
      '',
      "Client-process CPU is this Node process (client, response parsing, and the counting proxy); Prometheus CPU is the change in its `process_cpu_seconds_total` (10 ms resolution); Σ request latency adds up, over requests, the time from a request reaching the proxy to the end of Prometheus' answer (it exceeds wall time when requests overlap).",
    ].join('\n');
    return {
      markdown,
      memory: memoryReport(sampler),
      data: {
        planned: planned.length,
        perReview,
        answered,
        missing: review.value.missing.length,
        times: Object.fromEntries(times),
        clientCpu: Object.fromEntries(clientCpu),
        upstream: Object.fromEntries(upstream),
        promCpu: Object.fromEntries(promCpu),
        startMs: started.ms,
      },
    };
  } finally {
    await proxy.close();
    await prom.stop();
  }
}

export const telemetryBench: Benchmark = {
  name: 'telemetry',
  about: 'queries and bytes per review; gather time at concurrency 1, 4, 8',
  run,
};
