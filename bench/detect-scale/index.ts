import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { PARSERS } from '../../src/detect/registry.js';
import type { ChangeSet } from '../../src/domain/index.js';
import { sign } from '@octokit/webhooks-methods';
import { newSecrets, startServerProcess } from '../reliability/load/server-process.js';
import { FakeGitHub } from '../../test/helpers/fake-github.js';
import { FakeRepo } from '../../test/helpers/fake-repo.js';
import { EXAMPLE_REPO, pullRequestPayload } from '../../test/helpers/payloads.js';
import { concatDoubling, hugeForEach, kustomizeOverlay } from '../../test/helpers/hostile-files.js';
import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { fmt, HeapSampler, median, memoryReport, now, quantile, table } from '../lib/measure.js';
import { FILE_OF, largeFile } from './generate.js';
import type { Format } from './generate.js';
import { largeOverlay, OVERLAY } from './kustomize-overlay.js';
import type { OverlayShape } from './kustomize-overlay.js';

const SIZES_KIB = [128, 256, 512, 1000];
const PATCH_COUNTS = [500, 1000, 2000, 4000];
const REPEATS = 3;
const PING_EVERY_MS = 20;

function changeSetOf(path: string, base: string, head: string): ChangeSet {
  return {
    base: { label: 'base', read: (p) => Promise.resolve(p === path ? base : null) },
    head: { label: 'head', read: (p) => Promise.resolve(p === path ? head : null) },
    changedPaths: () => Promise.resolve([path]),
  };
}

/** Detection of one large file at growing sizes, in this thread: the cost per MB should stay flat. */
async function scaling(sampler: HeapSampler) {
  const rows: (string | number)[][] = [];
  const data: Record<string, unknown>[] = [];
  for (const format of ['kueue', 'terraform'] as Format[]) {
    let first: number | null = null;
    for (const kib of SIZES_KIB) {
      const file = largeFile(format, kib * 1024);
      const set = changeSetOf(FILE_OF[format], file.base, file.head);
      const times: number[] = [];
      let changes = 0;
      for (let i = 0; i < REPEATS; i++) {
        const start = now();
        changes = (await detectChanges(set, PARSERS)).changes.length;
        times.push(now() - start);
        sampler.mark();
      }
      // Both sides are parsed: the size read is twice the file's.
      const mb = (file.head.length + file.base.length) / (1024 * 1024);
      const perMb = median(times) / mb;
      first ??= perMb;
      rows.push([
        format,
        fmt(file.head.length / 1024, 0),
        file.decls,
        changes,
        fmt(median(times), 0),
        fmt(perMb, 0),
        fmt(perMb / first, 2),
      ]);
      data.push({ format, chars: file.head.length, decls: file.decls, changes, ms: median(times), msPerMb: perMb });
    }
  }
  return { rows, data };
}

/**
 * One kustomize overlay of growing patch counts (4,000 inline patches is 840 KiB), both sides
 * rendered: the time per patch should stay flat. CPU time is shown beside the wall clock, which a
 * shared machine stretches.
 */
async function overlays(sampler: HeapSampler) {
  const rows: (string | number)[][] = [];
  const data: Record<string, unknown>[] = [];
  for (const shape of ['one patch per queue', 'every patch on one queue'] as OverlayShape[]) {
    let first: number | null = null;
    for (const patches of PATCH_COUNTS) {
      const o = largeOverlay(patches, shape);
      const set: ChangeSet = {
        base: { label: 'base', read: (p) => Promise.resolve(o.base.get(p) ?? null) },
        head: { label: 'head', read: (p) => Promise.resolve(o.head.get(p) ?? null) },
        changedPaths: () => Promise.resolve([OVERLAY]),
      };
      const times: number[] = [];
      const cpu: number[] = [];
      let changes = 0;
      for (let i = 0; i < REPEATS; i++) {
        const start = now();
        const used = process.cpuUsage();
        changes = (await detectChanges(set, PARSERS)).changes.length;
        const spent = process.cpuUsage(used);
        times.push(now() - start);
        cpu.push((spent.user + spent.system) / 1000);
        sampler.mark();
      }
      const perPatch = median(cpu) / patches;
      first ??= perPatch;
      rows.push([
        shape,
        patches,
        fmt(o.chars / 1024, 0),
        changes,
        fmt(median(times), 0),
        fmt(median(cpu), 0),
        fmt(perPatch, 2),
        fmt(perPatch / first, 2),
      ]);
      data.push({ shape, patches, chars: o.chars, changes, ms: median(times), cpuMs: median(cpu) });
    }
  }
  return { rows, data };
}

/** `/ping` asked every few ms at `url` while `during` runs; each answer's round trip. */
async function pingWhile(url: string, during: () => Promise<unknown>): Promise<{ latencies: number[]; ms: number }> {
  const latencies: number[] = [];
  let done = false;
  const pinger = (async () => {
    while (!done) {
      const start = now();
      await fetch(url).then((r) => r.text());
      latencies.push(now() - start);
      await new Promise((r) => setTimeout(r, PING_EVERY_MS));
    }
  })();
  const start = now();
  await during();
  const ms = now() - start;
  done = true;
  await pinger;
  return { latencies, ms };
}

/** The same, `/ping` answered from this process's event loop: what `during` holds it for. */
async function pingLocalWhile(during: () => Promise<unknown>): Promise<{ latencies: number[]; ms: number }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('PONG'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await pingWhile(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`, during);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * The App as operators run it (`node dist/github/app/server.js`, its own process) reviewing pull
 * requests of 1 MB capacity files over signed webhooks, while its own `/ping` is asked. The fake
 * GitHub runs here, so its request checking is not counted against the App's event loop.
 */
async function pingDuringReviews(sampler: HeapSampler) {
  const fake = await FakeGitHub.start();
  const secrets = newSecrets();
  const server = await startServerProcess({ githubHost: new URL(fake.url).host, secrets });
  // The pings are timed from this process, which also serves the fake: its first request loads
  // GitHub's OpenAPI description (half a second), which must not be counted against the App.
  await fetch(`${fake.url}/app`).then((r) => r.text());
  const rows: (string | number)[][] = [];
  const data: Record<string, unknown>[] = [];
  try {
    let number = 1;
    // The generated 1 MB files, each also parsed in this thread for comparison; then files built
    // to hold a reviewer (test/helpers/hostile-files.ts), reviewed by the App only.
    const reviewed = [
      ...(['kueue', 'terraform'] as Format[]).map((format) => {
        const file = largeFile(format, 1000 * 1024);
        return { label: format, path: FILE_OF[format], base: file.base, head: file.head, shared: {}, inline: true };
      }),
      ...[concatDoubling(), hugeForEach(), kustomizeOverlay()].map((h) => ({
        ...h,
        label: `hostile: ${h.name}`,
        shared: h.shared ?? {},
        inline: false,
      })),
    ];
    for (const file of reviewed) {
      const format = file.label;
      const pr = {
        base: EXAMPLE_REPO,
        number: number++,
        baseSha: `${number}`.padStart(40, 'b'),
        headSha: `${number}`.padStart(40, 'c'),
        baseFiles: { ...file.shared, [file.path]: file.base },
        headFiles: { ...file.shared, [file.path]: file.head },
      };
      const repo = new FakeRepo(fake, pr).serve();
      const payload = pullRequestPayload({
        action: 'opened',
        installationId: 4242,
        number: pr.number,
        baseSha: pr.baseSha,
        headSha: pr.headSha,
      });
      // Probot answers 202 when a review outlasts 9 s; it is done when the check is concluded.
      const concluded = async () => {
        for (let i = 0; i < 2400 && !repo.checkRuns.at(-1)?.conclusion; i++) await new Promise((r) => setTimeout(r, 50));
      };
      await loopLagMaxMs(server.url); // starts the App's own measure afresh
      const viaApp = await pingWhile(`${server.url}/ping`, async () => {
        await deliver(server.url, secrets.webhookSecret, payload);
        await concluded();
      });
      const lagMs = await loopLagMaxMs(server.url);
      sampler.mark();
      const conclusion = repo.checkRuns.at(-1)?.conclusion ?? 'none';
      // The same detection in this thread, for comparison: what the event loop would suffer.
      const inline = file.inline ? await pingLocalWhile(() => detectChanges(changeSetOf(file.path, file.base, file.head), PARSERS)) : null;
      sampler.mark();
      const runs: [string, { latencies: number[]; ms: number }, number | null][] = [['App process, the review in a worker', viaApp, lagMs]];
      if (inline) runs.push(['detection in the main thread (no workers)', inline, null]);
      for (const [how, run, lag] of runs) {
        rows.push([
          format,
          how,
          fmt(run.ms, 0),
          run.latencies.length,
          fmt(median(run.latencies), 1),
          fmt(quantile(run.latencies, 0.95), 1),
          fmt(Math.max(...run.latencies), 0),
          lag === null ? '–' : fmt(lag, 0),
        ]);
        data.push({
          format,
          how,
          ms: run.ms,
          pings: run.latencies.length,
          maxPingMs: Math.max(...run.latencies),
          loopLagMaxMs: lag,
          conclusion,
          title: repo.checkRuns.at(-1)?.output.title ?? null,
        });
      }
      if (conclusion === 'none') throw new Error(`the App did not conclude the ${format} review: ${server.lines.slice(-10).join('\n')}`);
    }
  } finally {
    await server.stop();
    await fake.close();
  }
  return { rows, data };
}

/**
 * The App's own event-loop delay, the most since the last reading (prom-client's default metric
 * on `/metrics`, reset at each scrape), in ms: what held its loop, apart from how long the OS kept
 * the process off a CPU, which the ping's round trip also counts.
 */
async function loopLagMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^gpu_justify_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  if (!m) throw new Error("the App's /metrics has no gpu_justify_nodejs_eventloop_lag_max_seconds");
  return Number(m[1]) * 1000;
}

/** A webhook signed as GitHub signs it; resolves when the App has answered. */
async function deliver(url: string, secret: string, payload: unknown): Promise<void> {
  const body = JSON.stringify(payload);
  const res = await fetch(`${url}/api/github/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': await sign(secret, body),
      'user-agent': 'GitHub-Hookshot/bench',
    },
    body,
  });
  await res.text();
}

async function run(): Promise<BenchResult> {
  const sampler = new HeapSampler();
  const scale = await scaling(sampler);
  const kustomize = await overlays(sampler);
  const ping = await pingDuringReviews(sampler);
  const markdown = [
    '#### detect-scale: one large capacity file, growing sizes (median of 3, both sides parsed)',
    '',
    table(['format', 'file KiB', 'declarations', 'changes', 'ms', 'ms per MB read', 'ms per MB vs smallest'], scale.rows),
    '',
    '#### detect-scale: a kustomize overlay of many patches (median of 3, both sides rendered)',
    '',
    table(['shape', 'patches', 'overlay KiB', 'changes', 'ms', 'CPU ms', 'CPU ms per patch', 'per patch vs smallest'], kustomize.rows),
    '',
    `#### detect-scale: \`/ping\` answered from the App's process while it reviews a 1 MB file or a hostile one (a ping every ${PING_EVERY_MS} ms)`,
    '',
    table(['format', 'how', 'review ms', 'pings', 'p50 ms', 'p95 ms', 'max ms', 'loop lag max ms'], ping.rows),
  ].join('\n');
  return { markdown, memory: memoryReport(sampler), data: { scale: scale.data, kustomize: kustomize.data, ping: ping.data } };
}

export const detectScaleBench: Benchmark = {
  name: 'detect-scale',
  about:
    'detection time per MB of one large file at growing sizes, per patch of a large kustomize overlay, and /ping latency while the App reviews 1 MB and hostile files',
  run,
};
