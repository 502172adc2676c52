import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFiniteNote } from '../../src/telemetry/finite.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { gpuRequests } from '../../src/telemetry/queries/kube.js';
import type { NamedQuery } from '../../src/telemetry/queries/named-query.js';
import { DAY, startPrometheus } from '../helpers/prometheus/index.js';
import type { RunningPrometheus } from '../helpers/prometheus/index.js';
import { toOpenMetrics, type Family } from '../helpers/prometheus/openmetrics.js';
import { missingWords } from '../../src/report/missing-words.js';

const STEP = 300;
const END = Math.floor(Date.now() / 1000 / DAY) * DAY;
const START = END - DAY;
const times: number[] = [];
for (let t = START; t <= END; t += STEP) times.push(t);

/** Four one-GPU pods per namespace; `value(pod, i)` gives the i-th sample. */
function requests(namespace: string, value: (pod: number, i: number) => number) {
  return [0, 1, 2, 3].map((pod) => ({
    name: 'kube_pod_container_resource_requests',
    labels: { namespace, pod: `${namespace}-${pod}`, container: 'main', resource: 'nvidia_com_gpu', unit: 'integer' },
    points: times.map((t, i): [number, number] => [t, value(pod, i)]),
  }));
}

const families: Family[] = [
  {
    name: 'kube_pod_container_resource_requests',
    type: 'gauge',
    series: [
      // An exporter writing NaN and +Inf two samples in three: a sum over it is mostly not finite.
      ...requests('mostly', (_pod, i) => (i % 3 === 0 ? Number.NaN : i % 3 === 1 ? Number.POSITIVE_INFINITY : 1)),
      // One pod NaN for the first two hours: the sum is NaN there and sound elsewhere.
      ...requests('partly', (pod, i) => (pod === 0 && i < 24 ? Number.NaN : 1)),
      // One pod NaN throughout: a per-pod answer loses that pod's series.
      ...requests('onepod', (pod) => (pod === 3 ? Number.NaN : 1)),
    ],
  },
];

let prom: RunningPrometheus;
let source: PrometheusSource;
const at = new Date(END * 1000);
const windowMinutes = DAY / 60;

beforeAll(async () => {
  prom = await startPrometheus(toOpenMetrics(families));
  source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }), { minStepSeconds: STEP });
}, 60_000);

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

const workload = (namespace: string) => gpuRequests({ kind: 'workload', name: namespace, selector: { namespace } });

describe('answers whose samples are NaN or ±Inf (real Prometheus)', () => {
  it('a range answer mostly NaN and +Inf is missing, naming the query and why', async () => {
    const q = workload('mostly');
    const r = await source.query(q, at, windowMinutes);
    expect(r).toMatchObject({ status: 'missing', reason: 'not-finite' });
    if (r.status !== 'missing') return;
    expect(r.message).toMatch(/most samples were not finite \(\d+ of \d+: \d+ NaN, \d+ infinite\) for ksm\.gpu-requests:workload:mostly$/);
  });

  it('an answer with a few NaN samples is kept, and its note says how many', async () => {
    const q = workload('partly');
    const r = await source.query(q, at, windowMinutes);
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    // The first two hours of 5-minute steps are NaN in the sum.
    expect(r.skipped.nan).toBe(24);
    expect(r.droppedSeries).toBeUndefined();
    const note = notFiniteNote(r);
    expect(missingWords(note!).what).toBe(
      `${q.what}: 24 of ${times.length} samples of ksm.gpu-requests:workload:partly were not finite (24 NaN, 0 infinite); the numbers taken from it count only the finite ones`,
    );
    expect(missingWords(note!).how).toContain('ksm.gpu-requests:workload:partly');
  });

  it('a series with no finite sample is left out of a per-pod answer, and the note counts it', async () => {
    const q: NamedQuery = {
      id: 'per-pod:workload:onepod',
      kind: 'range',
      promql: 'kube_pod_container_resource_requests{namespace="onepod"}',
      what: 'GPUs per pod',
      how: 'n/a',
    };
    const r = await source.query(q, at, windowMinutes);
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    expect(r.series.map((s) => s.labels['pod']).sort()).toEqual(['onepod-0', 'onepod-1', 'onepod-2']);
    expect(r.droppedSeries).toBe(1);
    expect(missingWords(notFiniteNote(r)!).what).toContain('1 of its series had no finite sample and is left out');
  });

  it('a sound answer has no note', async () => {
    const r = await source.query(
      { ...workload('onepod'), promql: 'sum(kube_pod_container_resource_requests{namespace="onepod",pod!="onepod-3"})' },
      at,
      windowMinutes,
    );
    expect(r.status === 'ok' && notFiniteNote(r)).toBeNull();
  });
});
