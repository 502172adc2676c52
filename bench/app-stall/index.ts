import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { startAppProcess } from '../../test/helpers/app-process.js';
import { deliverTo, newPrivateKey } from '../../test/helpers/app-server.js';
import { FakeGitHub } from '../../test/helpers/fake-github.js';
import { FakeRepo } from '../../test/helpers/fake-repo.js';
import type { PullRequestState } from '../../test/helpers/fake-repo.js';
import {
  concatDoubling,
  evaluatorBombs,
  fanOutFiles,
  hugeForEach,
  kustomizeOverlay,
  manyQueueFiles,
  yamlBombs,
} from '../../test/helpers/hostile-files.js';
import type { HostileFile } from '../../test/helpers/hostile-files.js';
import { pullRequestPayload } from '../../test/helpers/payloads.js';
import { CATALOG, QUEUE_FILE, README, clusterQueue } from '../../test/github/scenarios.js';
import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { fmt, HeapSampler, memoryReport, quantile, table } from '../lib/measure.js';

const INSTALLATION = 4242;
const DEADLINE_SECONDS = 60;
const WORKERS = 4;
const PING_EVERY_MS = 50;
const IDLE_MS = 3000;
const POLICY = 'mode: enforce\n';

interface Pr {
  name: string;
  repo: FakeRepo;
  payload: unknown;
  deliveredAt?: number;
  concludedAt?: number;
}

function prOf(
  fake: FakeGitHub,
  n: number,
  name: string,
  base: Record<string, string>,
  head: Record<string, string>,
  sharing?: FakeRepo,
): Pr {
  const repo = { owner: 'acme', repo: `infra-${n}` };
  const common = { 'gpu-workloads.yaml': CATALOG, 'README.md': README, '.github/gpu-justify.yml': POLICY };
  const state: PullRequestState = {
    base: repo,
    number: n,
    baseSha: `${n}`.padStart(40, 'b'),
    headSha: `${n}`.padStart(40, 'c'),
    baseFiles: { ...common, [QUEUE_FILE]: clusterQueue(6), ...base },
    headFiles: { ...common, [QUEUE_FILE]: clusterQueue(6), ...head },
  };
  const served = new FakeRepo(fake, state, sharing ? { sharing } : {}).serve();
  const payload = pullRequestPayload({
    action: 'opened',
    installationId: INSTALLATION,
    number: n,
    baseSha: state.baseSha,
    headSha: state.headSha,
    repo,
    changedFiles: [...new Set([...Object.keys(state.baseFiles), ...Object.keys(state.headFiles)])].filter(
      (p) => state.baseFiles[p] !== state.headFiles[p],
    ).length,
  });
  return { name, repo: served, payload };
}

function hostilePr(fake: FakeGitHub, n: number, f: HostileFile, sharing?: FakeRepo): Pr {
  return prOf(fake, n, f.name, { ...f.shared, [f.path]: f.base }, { ...f.shared, [f.path]: f.head }, sharing);
}

/** Loop-delay reports the App process prints (TEST_LOOP_REPORT_MS): `loop <time> <max ms> <p99 ms>`. */
function loopReports(output: string): { at: number; maxMs: number; p99Ms: number }[] {
  return [...output.matchAll(/^loop (\d+) ([\d.]+) ([\d.]+)$/gm)].map((m) => ({
    at: Number(m[1]),
    maxMs: Number(m[2]),
    p99Ms: Number(m[3]),
  }));
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

async function run(): Promise<BenchResult> {
  const sampler = new HeapSampler();
  const fake = await FakeGitHub.start();
  const app = await startAppProcess(fake.url, newPrivateKey(), {
    GPU_JUSTIFY_REVIEW_WORKERS: String(WORKERS),
    GPU_JUSTIFY_REVIEW_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
    TEST_LOOP_REPORT_MS: '250',
    // GPU_JUSTIFY_REVIEW_READ_MB: a review's read budget, to compare with another (the App's default otherwise).
    ...(process.env['GPU_JUSTIFY_REVIEW_READ_MB'] ? { GPU_JUSTIFY_REVIEW_READ_MB: process.env['GPU_JUSTIFY_REVIEW_READ_MB'] } : {}),
    // BENCH_CPU_PROF_DIR: the App process and its review workers write CPU profiles there.
    ...(process.env['BENCH_CPU_PROF_DIR'] ? { TEST_CPU_PROF_DIR: process.env['BENCH_CPU_PROF_DIR'] } : {}),
  });
  const pinger = new Worker(new URL('./pinger.ts', import.meta.url), { workerData: { url: app.url, everyMs: PING_EVERY_MS } });
  const ready = new Promise<void>((resolve) => pinger.once('message', () => resolve()));
  const pings = new Promise<[number, number][]>((resolve) =>
    pinger.on('message', (m: unknown) => {
      if (typeof m === 'object' && m !== null && 'samples' in m) resolve((m as { samples: [number, number][] }).samples);
    }),
  );
  try {
    await ready;
    // Idle first: what /ping and the loop give with nothing under review.
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const hostileStart = Date.now();
    const files = [concatDoubling(), hugeForEach(), kustomizeOverlay(), ...yamlBombs(), ...evaluatorBombs(), ...fanOutFiles()];
    const first = hostilePr(fake, 1, files[0] as HostileFile);
    const prs = [first, ...files.slice(1).map((f, i) => hostilePr(fake, i + 2, f, first.repo))];
    // Many files each within every per-file limit: bounded by the review's read budget alone.
    for (const set of [manyQueueFiles(200, 500_000), manyQueueFiles(3000, 2_000)])
      prs.push(prOf(fake, prs.length + 1, set.name, {}, set.head, first.repo));
    for (const pr of prs) {
      pr.deliveredAt = Date.now();
      await deliverTo(app.url, 'pull_request', pr.payload, { delivery: randomUUID() });
    }
    // An ordinary pull request meanwhile: its review waits for a worker at most.
    const ordinary = prOf(fake, 99, 'an ordinary queue raise', {}, { [QUEUE_FILE]: clusterQueue(12) }, first.repo);
    ordinary.deliveredAt = Date.now();
    await deliverTo(app.url, 'pull_request', ordinary.payload, { delivery: randomUUID() });
    const all = [...prs, ordinary];
    await waitFor(
      () => {
        for (const pr of all)
          if (pr.concludedAt === undefined && pr.repo.checkRuns.at(-1)?.status === 'completed') pr.concludedAt = Date.now();
        return all.every((p) => p.concludedAt !== undefined);
      },
      (DEADLINE_SECONDS * Math.ceil(all.length / WORKERS) + 120) * 1000,
    );
    const hostileEnd = Date.now();
    pinger.postMessage('stop');
    const samples = await pings;
    const idle = samples.filter(([at]) => at < hostileStart).map(([, ms]) => ms);
    const busy = samples.filter(([at]) => at >= hostileStart && at <= hostileEnd).map(([, ms]) => ms);
    const loops = loopReports(app.output());
    const idleLoop = loops.filter((l) => l.at < hostileStart);
    const busyLoop = loops.filter((l) => l.at >= hostileStart && l.at <= hostileEnd + 500);
    const ms = (x: number) => (Number.isFinite(x) ? fmt(x, 0) : 'no answer');
    const pingRow = (what: string, xs: number[]) => [
      what,
      xs.length,
      ms(quantile(xs, 0.5)),
      ms(quantile(xs, 0.99)),
      ms(Math.max(0, ...xs)),
    ];
    const loopRow = (what: string, xs: typeof loops) => [
      what,
      xs.length,
      ms(Math.max(0, ...xs.map((l) => l.p99Ms))),
      ms(Math.max(0, ...xs.map((l) => l.maxMs))),
    ];
    const reviews = all.map((p) => {
      const check = p.repo.checkRuns.at(-1);
      const seconds =
        p.concludedAt !== undefined && p.deliveredAt !== undefined ? fmt((p.concludedAt - p.deliveredAt) / 1000, 1) : 'not concluded';
      const how = check?.output.title === 'gpu-justify could not run' ? 'stopped at its deadline' : (check?.output.title ?? '');
      return [p.name, check?.conclusion ?? 'none', how.slice(0, 60), seconds];
    });
    const markdown = [
      `## The App's own process under hostile files (\`npm run bench -- app-stall\`)`,
      '',
      `The App (AppServer, Probot's middleware, the review workers) in a process of its own with ${WORKERS} review workers and a deadline of ${DEADLINE_SECONDS} s, against the strict fake GitHub in the bench's process; ${prs.length} hostile pull requests delivered at once (signed webhooks), then an ordinary one. \`/ping\` is asked every ${PING_EVERY_MS} ms from a thread of its own; the App process reports its own event-loop delay (perf_hooks, every 250 ms).`,
      '',
      table(['/ping', 'asked', 'p50 ms', 'p99 ms', 'max ms'], [pingRow('idle', idle), pingRow('hostile files under review', busy)]),
      '',
      table(
        ['App event loop', 'reports', 'worst p99 ms', 'max ms'],
        [loopRow('idle', idleLoop), loopRow('hostile files under review', busyLoop)],
      ),
      '',
      table(['pull request', 'conclusion', 'how', 's to conclude'], reviews),
    ].join('\n');
    return {
      markdown,
      memory: memoryReport(sampler),
      data: {
        pingIdle: idle,
        pingBusyP99: quantile(busy, 0.99),
        pingBusyMax: Math.max(0, ...busy),
        loopBusyMax: Math.max(0, ...busyLoop.map((l) => l.maxMs)),
      },
    };
  } finally {
    pinger.postMessage('stop');
    await pinger.terminate();
    await app.kill();
    await fake.close();
  }
}

export const appStallBench: Benchmark = {
  name: 'app-stall',
  about:
    "/ping and the App process's own event-loop delay while hostile files (evaluator and YAML bombs, many large or small files) are reviewed",
  run,
};
