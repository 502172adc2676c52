import { gpuJustifyApp } from '../../src/github/app.js';
import { AppServer } from '../../test/helpers/app-server.js';
import { FakeGitHub } from '../../test/helpers/fake-github.js';
import type { FakeRequest } from '../../test/helpers/fake-github.js';
import { FakeRepo } from '../../test/helpers/fake-repo.js';
import { pullRequestPayload } from '../../test/helpers/payloads.js';
import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { fmt, HeapSampler, memoryReport, now, quantile, retainedHeapMiB, table } from '../lib/measure.js';
import { bigPr, gpuPr, nonGpuPr, twoQueuePr } from './scenarios.js';
import type { AppScenario } from './scenarios.js';

const INSTALLATION = 4242;
const PRS = 200;
const WARMUP = 5;

interface Counts {
  listFiles: number;
  contentReads: number;
  gpuFileReads: number;
  otherChangedReads: number;
  configReads: number;
  otherReads: number;
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
  const writes = api.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.operation ?? r.path}`);
  return {
    listFiles,
    contentReads: contents.length,
    gpuFileReads,
    otherChangedReads,
    configReads: contents.length - gpuFileReads - otherChangedReads,
    otherReads: api.filter((r) => r.method === 'GET').length - contents.length - listFiles,
    writes,
    total: api.length,
  };
}

const payload = (s: AppScenario) =>
  pullRequestPayload({ action: 'opened', installationId: INSTALLATION, number: s.pr.number, baseSha: s.pr.baseSha, headSha: s.pr.headSha });

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

    const q = (xs: number[], p: number) => fmt(quantile(xs, p), 1);
    const markdown = [
      '### app: GitHub API calls per review and webhook-to-comment latency (real webhook server and fake GitHub on loopback)',
      '',
      'Calls counted at the fake GitHub, token requests aside. Content reads are `GET …/contents/…` and `GET …/git/blobs/…`.',
      '',
      table(
        [
          'scenario',
          'changed files',
          'GPU files',
          'list-files calls',
          'content reads per GPU file',
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
    ].join('\n');
    return {
      markdown,
      memory: memoryReport(sampler),
      data: { counts, latencies, answered, prs: PRS, retainedByPr, fakeHeldKiBPerPr: fakeHeldChars / PRS / 1024 },
    };
  } finally {
    await app.close();
    await fake.close();
  }
}

function summarise(writes: readonly string[]): string {
  const by = new Map<string, number>();
  for (const w of writes) by.set(w, (by.get(w) ?? 0) + 1);
  return [...by].map(([w, n]) => `${n}× ${w.replace('/repos/{owner}/{repo}', '')}`).join(', ');
}

export const appBench: Benchmark = { name: 'app', about: 'API calls per review; webhook-to-comment latency over 200 PRs', run };
