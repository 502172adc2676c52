import { createGpuJustifyApp, gpuJustifyApp } from '../../src/github/app/app.js';
import { REVIEW_STEP_SECONDS } from '../../src/telemetry/collect.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { startSimulatedPrometheus } from '../../test/helpers/prometheus/index.js';
import { startDelayingProxy } from './delaying-proxy.js';
import { AppServer } from '../../test/helpers/app-server.js';
import { FakeGitHub } from '../../test/helpers/fake-github.js';
import type { FakeRequest } from '../../test/helpers/fake-github.js';
import { FakeRepo } from '../../test/helpers/fake-repo.js';
import { pullRequestPayload } from '../../test/helpers/payloads.js';
import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fmt, HeapSampler, intIn, median, memoryReport, now, quantile, retainedHeapMiB, seeded, table } from '../lib/measure.js';
import { bigPr, gpuPr, measuredGpuPr, nonGpuPr, twoQueuePr } from './scenarios.js';
import type { AppScenario } from './scenarios.js';

const INSTALLATION = 4242;
const PRS = 200;
const WARMUP = 5;
/** PRs per scenario delivered against a fake answering like GitHub over the internet. */
const JITTERED_GPU_PRS = 40;
const JITTERED_OTHER_PRS = 8;
/** Each answer waits this many milliseconds, drawn uniformly with a fixed seed. */
const JITTER_MS = [50, 300] as const;
/** Dependent round trips no review can go below: list the files, read them, write. */
const FLOOR = 3;

interface Counts {
  listFiles: number;
  contentReads: number;
  gpuFileReads: number;
  otherChangedReads: number;
  configReads: number;
  otherReads: number;
  /** POST /graphql: file reads batched, many per query. */
  graphql: number;
  writes: string[];
  total: number;
}

function classify(requests: readonly FakeRequest[], s: AppScenario): Counts {
  const api = requests.filter((r) => !r.path.endsWith('/access_tokens'));
  const contents = api.filter((r) => r.method === 'GET' && (/\/contents\//.test(r.path) || /\/git\/blobs\//.test(r.path)));
  const pathOf = (r: FakeRequest) => r.path.replace(/^\/repos\/[^/]+\/[^/]+\/contents\//, '');
  const gpu = new Set(s.gpuFiles);
  const changed = new Set(Object.keys(s.pr.headFiles).filter((p) => s.pr.baseFiles[p] !== s.pr.headFiles[p]));
  const gpuFileReads = contents.filter((r) => gpu.has(pathOf(r))).length;
  const otherChangedReads = contents.filter((r) => !gpu.has(pathOf(r)) && changed.has(pathOf(r))).length;
  const listFiles = api.filter((r) => r.method === 'GET' && /\/pulls\/\d+\/files$/.test(r.path)).length;
  const graphql = api.filter((r) => r.method === 'POST' && r.path === '/graphql').length;
  const writes = api.filter((r) => r.method !== 'GET' && r.path !== '/graphql').map((r) => `${r.method} ${r.operation ?? r.path}`);
  return {
    listFiles,
    contentReads: contents.length,
    gpuFileReads,
    otherChangedReads,
    configReads: contents.length - gpuFileReads - otherChangedReads,
    otherReads: api.filter((r) => r.method === 'GET').length - contents.length - listFiles,
    graphql,
    writes,
    total: api.length,
  };
}

const payload = (s: AppScenario) =>
  pullRequestPayload({
    action: 'opened',
    installationId: INSTALLATION,
    number: s.pr.number,
    baseSha: s.pr.baseSha,
    headSha: s.pr.headSha,
    changedFiles: s.changedFiles,
  });

async function run(): Promise<BenchResult> {
  const sampler = new HeapSampler();
  const fake = await FakeGitHub.start();
  const app = await AppServer.start(gpuJustifyApp, fake.url);
  // When the comment reaches GitHub: the fake records a request before answering it.
  const commentAt = new Map<number, number>();
  const record = fake.requests.push.bind(fake.requests);
  fake.requests.push = (...items: FakeRequest[]): number => {
    for (const r of items) {
      const m = /\/issues\/(\d+)\/comments$/.exec(r.path);
      if (r.method === 'POST' && m?.[1]) commentAt.set(Number(m[1]), now());
    }
    return record(...items);
  };
  try {
    // One review first, not counted: it starts the parse workers and asks the App's login
    // (`GET /app`, once per process), which on a loaded machine can outlast the webhook's answer.
    const warm = gpuPr(900);
    new FakeRepo(fake, warm.pr).serve();
    await app.deliver('pull_request', payload(warm));
    for (let i = 0; i < 600 && fake.requests.filter((r) => r.path.endsWith('/reviews')).length === 0; i++) await sleep(50);
    // Calls per scenario, each on a fresh installation token cache-wise as a new PR would be.
    const scenarios = [gpuPr(1), twoQueuePr(4), nonGpuPr(2), bigPr(3)];
    const countRows: (string | number)[][] = [];
    const counts: Record<string, Counts> = {};
    for (const s of scenarios) {
      const from = fake.requests.length;
      new FakeRepo(fake, s.pr).serve();
      const res = await app.deliver('pull_request', payload(s));
      if (res.status !== 200) throw new Error(`${s.name}: webhook answered ${res.status}`);
      const c = classify(fake.requests.slice(from), s);
      counts[s.name] = c;
      const perGpu = s.gpuFiles.length === 0 ? '–' : fmt(c.gpuFileReads / s.gpuFiles.length, 1);
      countRows.push([
        s.name,
        s.changedFiles,
        s.gpuFiles.length,
        `${c.listFiles} (goal ${Math.ceil(s.changedFiles / 100)})`,
        c.graphql,
        `${perGpu}${s.gpuFiles.length ? ' (goal 2)' : ''}`,
        c.otherChangedReads,
        c.configReads,
        c.otherReads,
        `${c.writes.length} (goal ≤ 3): ${summarise(c.writes)}`,
        c.total,
      ]);
      sampler.mark();
    }

    // Latency: PRs one after another, each a new PR number and head commit.
    const retainedByPr: [number, number | null][] = [[0, retainedHeapMiB()]];
    let fakeHeldChars = 0;
    const latencies: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < WARMUP + PRS; i++) {
      const s = gpuPr(1000 + i);
      const repo = new FakeRepo(fake, s.pr).serve();
      const t0 = now();
      const res = await app.deliver('pull_request', payload(s));
      const t1 = now();
      const posted = commentAt.get(s.pr.number);
      if (res.status !== 200 || posted === undefined)
        throw new Error(`PR ${s.pr.number}: status ${res.status}, comment ${posted === undefined ? 'never posted' : 'posted'}`);
      if (i >= WARMUP) {
        latencies.push(posted - t0);
        answered.push(t1 - t0);
      }
      if (fake.errors.length > 0) break;
      // What the fake keeps of this PR for good (its routes hold the FakeRepo): what the App wrote.
      if (i >= WARMUP) fakeHeldChars += JSON.stringify([repo.comments, repo.checkRuns, repo.reviewComments, s.pr]).length;
      // The fake's record of requests is its own memory, not the App's: drop it between PRs.
      fake.requests.length = 0;
      if (i % 20 === 0) sampler.mark();
      if (i >= WARMUP && (i - WARMUP + 1) % 50 === 0) retainedByPr.push([i - WARMUP + 1, retainedHeapMiB()]);
    }
    if (fake.errors.length > 0) throw new Error(`the fake GitHub saw invalid requests:\n${fake.errors.slice(0, 5).join('\n')}`);

    // As GitHub serves it: every answer after a jittered delay, the same seed every run.
    const rand = seeded(20261202);
    fake.delay = () => intIn(rand, JITTER_MS[0], JITTER_MS[1]);
    const slow: Jittered[] = [];
    slow.push(await jittered(fake, app, gpuPr, JITTERED_GPU_PRS, 5000));
    slow.push(await jittered(fake, app, twoQueuePr, JITTERED_OTHER_PRS, 6000));
    slow.push(await jittered(fake, app, nonGpuPr, JITTERED_OTHER_PRS, 7000));
    slow.push(await jittered(fake, app, bigPr, JITTERED_OTHER_PRS, 8000));
    // With telemetry: a real Prometheus (the simulated cluster) behind a proxy adding the same delays.
    const prom = await startSimulatedPrometheus();
    const proxy = await startDelayingProxy(prom.url, () => intIn(rand, JITTER_MS[0], JITTER_MS[1]));
    const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: proxy.url }), { minStepSeconds: REVIEW_STEP_SECONDS });
    const at = new Date(prom.window.end * 1000);
    const measuredApp = await AppServer.start(createGpuJustifyApp({ telemetry: () => ({ source, at }) }), fake.url);
    try {
      const before = proxy.requests;
      const measured = await jittered(fake, measuredApp, measuredGpuPr, JITTERED_GPU_PRS, 9000, (repo) => {
        // The comment must rest on measurements, or this row would time a review without telemetry.
        if (!/prometheus/i.test(repo.comments.at(-1)?.body ?? '')) throw new Error('the review with telemetry used none');
      });
      slow.unshift({ ...measured, prometheusRequests: (proxy.requests - before) / JITTERED_GPU_PRS });
    } finally {
      await measuredApp.close();
      await proxy.close();
      await prom.stop();
    }
    fake.delay = null;
    if (fake.errors.length > 0) throw new Error(`the fake GitHub saw invalid requests:\n${fake.errors.slice(0, 5).join('\n')}`);
    const results = new URL('../results/', import.meta.url);
    mkdirSync(results, { recursive: true });
    writeFileSync(
      new URL('app.json', results),
      `${JSON.stringify(
        {
          jitterMs: JITTER_MS,
          floor: FLOOR,
          scenarios: slow.map((j) => ({ ...j, p50: Number(j.p50.toFixed(1)), p95: Number(j.p95.toFixed(1)) })),
        },
        null,
        2,
      )}\n`,
    );

    const q = (xs: number[], p: number) => fmt(quantile(xs, p), 1);
    const markdown = [
      '### app: GitHub API calls per review and webhook-to-comment latency (real webhook server and fake GitHub on loopback)',
      '',
      'Calls counted at the fake GitHub, token requests aside. File reads go through GraphQL (`POST /graphql`, many blobs per query); REST content reads (`GET …/contents/…`, `GET …/git/blobs/…`) are its fall-back.',
      '',
      table(
        [
          'scenario',
          'changed files',
          'GPU files',
          'list-files calls',
          'GraphQL queries (all file reads)',
          'REST content reads per GPU file',
          'reads of other changed files',
          'config reads (policy, catalog)',
          'other GETs',
          'writes',
          'all calls',
        ],
        countRows,
      ),
      '',
      `Latency over ${PRS} GPU PRs delivered one after another (${WARMUP} more first, dropped), from sending the signed webhook to the fake receiving the comment's POST, and to the webhook's HTTP answer:`,
      '',
      table(
        ['measure', 'p50 ms', 'p95 ms', 'max ms'],
        [
          ['webhook sent → comment posted', q(latencies, 0.5), q(latencies, 0.95), q(latencies, 1)],
          ['webhook sent → webhook answered', q(answered, 0.5), q(answered, 0.95), q(answered, 1)],
        ],
      ),
      '',
      `As GitHub serves it: every answer of the fake after a delay drawn from ${JITTER_MS[0]}–${JITTER_MS[1]} ms (seeded), from sending the webhook to the comment's POST (to the check's conclusion when no comment is written). Round trips: the longest chain of calls each sent after the one before was answered, up to that write; the floor is ${FLOOR} (list → read → write). Also in \`bench/results/app.json\`.`,
      '',
      table(
        ['scenario', 'PRs', 'calls', 'writes', 'p50 ms', 'p95 ms', 'round trips (median / max)', 'floor'],
        slow.map((j) => [
          j.name,
          j.prs,
          j.prometheusRequests === undefined ? j.calls : `${j.calls} (+ ${fmt(j.prometheusRequests, 0)} to Prometheus)`,
          j.writes,
          fmt(j.p50, 0),
          fmt(j.p95, 0),
          `${j.roundTrips} / ${j.roundTripsMax}`,
          FLOOR,
        ]),
      ),
    ].join('\n');
    return {
      markdown,
      memory: memoryReport(sampler),
      data: { counts, latencies, answered, prs: PRS, retainedByPr, fakeHeldKiBPerPr: fakeHeldChars / PRS / 1024, jittered: slow },
    };
  } finally {
    await app.close();
    await fake.close();
  }
}

/**
 * The longest chain of requests each sent only after the one before it was answered, up to `last`:
 * the round trips a review waits for one after another, whatever ran beside them.
 */
function roundTrips(requests: readonly FakeRequest[], last: FakeRequest): number {
  const sorted = [...requests].filter((r) => r.arrivedAt <= last.arrivedAt).sort((a, b) => a.arrivedAt - b.arrivedAt);
  const depth = new Map<FakeRequest, number>();
  for (const r of sorted) {
    let before = 0;
    for (const q of sorted)
      if (q !== r && q.answeredAt !== undefined && q.answeredAt <= r.arrivedAt) before = Math.max(before, depth.get(q) ?? 0);
    depth.set(r, before + 1);
  }
  return depth.get(last) ?? 0;
}

interface Jittered {
  name: string;
  prs: number;
  calls: number;
  writes: number;
  /** webhook sent → comment posted (→ check concluded when the review writes no comment). */
  p50: number;
  p95: number;
  roundTrips: number;
  roundTripsMax: number;
  /** Requests to Prometheus per review, when the review has telemetry. */
  prometheusRequests?: number;
}

/** Reviews of one scenario against a fake whose every answer waits 50–300 ms, seeded. */
async function jittered(
  fake: FakeGitHub,
  app: AppServer,
  make: (n: number) => AppScenario,
  prs: number,
  firstNumber: number,
  /** Throws when a review did not do what the scenario is about. */
  check: (repo: FakeRepo) => void = () => undefined,
): Promise<Jittered> {
  const latencies: number[] = [];
  const trips: number[] = [];
  let calls = 0;
  let writes = 0;
  let name = '';
  for (let i = 0; i < prs; i++) {
    const s = make(firstNumber + i);
    name = s.name;
    const repo = new FakeRepo(fake, s.pr).serve();
    fake.requests.length = 0;
    const t0 = now();
    const res = await app.deliver('pull_request', payload(s));
    if (res.status !== 200) throw new Error(`${s.name}: webhook answered ${res.status}`);
    check(repo);
    const api = fake.requests.filter((r) => !r.path.endsWith('/access_tokens'));
    const isComment = (r: FakeRequest) => r.method === 'POST' && /\/issues\/\d+\/comments$/.test(r.path);
    // A check run concluded by an update, or created already concluded.
    const isConclusion = (r: FakeRequest) =>
      /\/check-runs(\/\d+)?$/.test(r.path) && typeof (r.body as { conclusion?: unknown } | undefined)?.conclusion === 'string';
    const last = api.find(isComment) ?? api.find(isConclusion);
    if (!last) throw new Error(`${s.name}: neither a comment nor a concluded check`);
    latencies.push(last.arrivedAt - t0);
    trips.push(roundTrips(fake.requests, last));
    calls = api.length;
    writes = api.filter((r) => r.method !== 'GET' && r.path !== '/graphql').length;
  }
  return {
    name,
    prs,
    calls,
    writes,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    roundTrips: median(trips),
    roundTripsMax: Math.max(...trips),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function summarise(writes: readonly string[]): string {
  const by = new Map<string, number>();
  for (const w of writes) by.set(w, (by.get(w) ?? 0) + 1);
  return [...by].map(([w, n]) => `${n}× ${w.replace('/repos/{owner}/{repo}', '')}`).join(', ');
}

export const appBench: Benchmark = { name: 'app', about: 'API calls per review; webhook-to-comment latency over 200 PRs', run };
