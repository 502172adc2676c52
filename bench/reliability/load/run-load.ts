import { writeFileSync } from 'node:fs';
import { sign } from '@octokit/webhooks-methods';
import { COMMENT_MARKER } from '../../../src/report/comment.js';
import { REPLY_MARKER } from '../../../src/github/explain.js';
import { startSimulatedPrometheus } from '../../../test/helpers/prometheus/index.js';
import { startRedis } from '../../../test/helpers/redis/server.js';
import { EXAMPLE_REPO } from '../../../test/helpers/payloads.js';
import { LoadFakeGitHub } from './fake-github-server.js';
import { buildScenario } from './scenario.js';
import type { Delivery } from './scenario.js';
import { newSecrets, startServerProcess } from './server-process.js';
import type { ServerProcess } from './server-process.js';

export interface LoadOptions {
  deliveries: number;
  prs: number;
  concurrency: number;
  seed: number;
  /** Undefined: octokit's own spacing, 1,000 ms between writes and 3,000 ms between notifying ones. */
  writeSpacingMs?: number;
  /** The whole run, sending and draining, stops after this. */
  timeBudgetMs: number;
  /** App processes behind a round-robin proxy (default 1); a redelivery goes to another replica. */
  replicas?: number;
  /** Replicas share a real Redis (`REDIS_URL`). */
  redis?: boolean;
  log: (line: string) => void;
}

export interface LoadReport {
  options: Omit<LoadOptions, 'log'>;
  counts: Record<string, number>;
  sent: number;
  statuses: Record<string, number>;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  sendSeconds: number;
  drainSeconds: number;
  drained: boolean;
  lostEvents: string[];
  duplicateReviewComments: string[];
  duplicateReplies: string[];
  staleFinalComments: string[];
  /** Review comments created beyond one per PR, those settled and deleted since included. */
  duplicateCommentsCreated: number;
  /** Check runs beyond one per distinct pull_request delivery of a head. */
  duplicateCheckRuns: number;
  checksInProgress: number;
  checkRuns: number;
  failedReviews: number;
  peakRssBytes: number | null;
  githubRequests: number;
  openApiChecked: number;
  openApiProblems: string[];
  unhandled: string[];
  serverExit: { code: number | null; signal: string | null } | null;
  replicas: number;
  redis: boolean;
  secretLeaks: string[];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const { log } = options;
  const started = Date.now();
  const prom = await startSimulatedPrometheus();
  const fake = await LoadFakeGitHub.start(EXAMPLE_REPO.owner, EXAMPLE_REPO.repo);
  fake.countMarker = COMMENT_MARKER;
  const secrets = newSecrets();
  const bearer = `prom-bearer-${Date.now()}`;
  const redis = options.redis ? await startRedis() : null;
  const servers: ServerProcess[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    servers.push(
      await startServerProcess({
        githubHost: fake.origin,
        secrets,
        env: { PROMETHEUS_URL: prom.url, PROMETHEUS_BEARER_TOKEN: bearer, ...(redis ? { REDIS_URL: redis.url } : {}) },
        ...(options.writeSpacingMs === undefined ? {} : { writeSpacingMs: options.writeSpacingMs }),
      }),
    );
  }
  const server = servers[0] as ServerProcess;
  log(
    `App processes ${servers.map((s) => `${s.pid} at ${s.url}`).join(', ')}; fake GitHub at ${fake.origin}; Prometheus at ${prom.url}` +
      (redis ? `; Redis at ${redis.url}` : ''),
  );
  // Round robin, as a load balancer would; a redelivery lands on another replica than the original.
  const firstReplica = new Map<string, number>();
  let turn = 0;
  const replicaFor = (d: Delivery): number => {
    const first = firstReplica.get(d.id);
    if (first !== undefined) return (first + 1) % servers.length;
    const chosen = turn++ % servers.length;
    firstReplica.set(d.id, chosen);
    return chosen;
  };
  const scenario = buildScenario(options);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const delivered: Delivery[] = [];
  const deadline = started + options.timeBudgetMs;

  const deliver = async (d: Delivery) => {
    const body = JSON.stringify(d.payload);
    const t0 = performance.now();
    let status: string;
    try {
      const target = servers[replicaFor(d)] ?? server;
      const res = await fetch(`${target.url}/api/github/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': d.event,
          'x-github-delivery': d.id,
          'x-hub-signature-256': await sign(secrets.webhookSecret, body),
          'user-agent': 'GitHub-Hookshot/load',
        },
        body,
        signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())),
      });
      await res.text();
      status = String(res.status);
    } catch (err) {
      status = err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'network-error';
    }
    latencies.push(performance.now() - t0);
    statuses[status] = (statuses[status] ?? 0) + 1;
    delivered.push(d);
  };

  // Steps go out in order, `concurrency` deliveries in flight; a step's pushes happen as it starts.
  const sendStart = Date.now();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  for (const step of scenario.steps) {
    if (Date.now() > deadline) break;
    step.apply(fake);
    for (const d of step.deliveries) {
      while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
      const p: Promise<void> = deliver(d).finally(() => inFlight.delete(p));
      inFlight.add(p);
      sent++;
      if (sent % 250 === 0)
        log(`  sent ${sent}, GitHub requests ${fake.requests}, RSS ${((server.rssSamples.at(-1) ?? 0) / 2 ** 20).toFixed(0)} MiB`);
    }
  }
  await Promise.all(inFlight);
  const sendSeconds = (Date.now() - sendStart) / 1000;

  // Drain: deliveries answered 202 ("still processing") go on; wait until GitHub sees no more.
  const drainStart = Date.now();
  let lastRequests = -1;
  let quietSince = Date.now();
  let drained = false;
  while (Date.now() < deadline) {
    const inProgress = [...fake.checkRuns.values()].some((r) => r.status !== 'completed');
    if (fake.requests !== lastRequests) {
      lastRequests = fake.requests;
      quietSince = Date.now();
    } else if (!inProgress && Date.now() - quietSince > 3_000) {
      drained = true;
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const drainSeconds = (Date.now() - drainStart) / 1000;
  const peakRssBytes = Math.max(...servers.map((s) => s.peakRss() ?? 0)) || null;
  for (const s of servers) await s.stop();
  const allLines = servers.flatMap((s) => s.lines);
  writeFileSync(new URL('../../../artifacts/reliability/server.log', import.meta.url), `${allLines.join('\n')}\n`);
  await prom.stop();
  await redis?.stop();
  await fake.close();

  // What every delivery should have left behind.
  const runs = [...fake.checkRuns.values()];
  const runsBySha = new Map<string, number>();
  for (const r of runs) runsBySha.set(r.headSha, (runsBySha.get(r.headSha) ?? 0) + 1);
  const lostEvents: string[] = [];
  const distinct = new Map<string, Delivery>();
  for (const d of delivered) distinct.set(d.id, d);
  const deliveriesBySha = new Map<string, number>();
  for (const d of distinct.values()) if (d.sha) deliveriesBySha.set(d.sha, (deliveriesBySha.get(d.sha) ?? 0) + 1);
  for (const [sha, n] of deliveriesBySha) {
    if ((runsBySha.get(sha) ?? 0) < n)
      lostEvents.push(`pull_request for ${sha.slice(0, 7)}: ${n} deliveries, ${runsBySha.get(sha) ?? 0} check runs`);
  }
  for (const d of distinct.values()) {
    if (d.event !== 'issue_comment' || !d.command?.startsWith('/gpu-justify') || d.commentId === undefined) continue;
    if (!(fake.reactions.get(d.commentId) ?? []).includes('eyes'))
      lostEvents.push(`command "${d.command}" on #${d.pr} (comment ${d.commentId}) got no reaction`);
  }
  const duplicateReviewComments: string[] = [];
  const staleFinalComments: string[] = [];
  for (const pr of scenario.gpuPrs) {
    const ours = fake.commentsOf(pr).filter((c) => c.body.includes(COMMENT_MARKER));
    if (ours.length > 1) duplicateReviewComments.push(`#${pr}: ${ours.length} review comments`);
    const head = scenario.finalHead.get(pr) ?? '';
    const last = ours.at(-1);
    if (!last || !last.body.includes(`/blob/${head}`))
      staleFinalComments.push(`#${pr}: final comment ${last ? 'is for another commit' : 'missing'}`);
  }
  const duplicateReplies: string[] = [];
  const replyCommands = [...distinct.values()].filter((d) => d.command === '/gpu-justify explain' || d.command === '/gpu-justify help');
  const repliesByPr = new Map<number, number>();
  for (const c of fake.comments)
    if (c.body.includes(REPLY_MARKER) && !c.body.includes(COMMENT_MARKER)) repliesByPr.set(c.issue, (repliesByPr.get(c.issue) ?? 0) + 1);
  const expectedByPr = new Map<number, number>();
  for (const d of replyCommands) expectedByPr.set(d.pr, (expectedByPr.get(d.pr) ?? 0) + 1);
  for (const [pr, n] of repliesByPr) {
    const expected = expectedByPr.get(pr) ?? 0;
    if (n > expected) duplicateReplies.push(`#${pr}: ${n} replies to ${expected} distinct commands`);
  }

  const secretsToFind = [
    secrets.webhookSecret,
    bearer,
    ...secrets.privateKey
      .split('\n')
      .filter((l) => l.length > 40)
      .slice(0, 3),
  ];
  const secretLeaks: string[] = [];
  for (const s of secretsToFind) {
    if (fake.sent.some((r) => r.includes(s))) secretLeaks.push(`a request to GitHub carried ${s.slice(0, 8)}…`);
    if (allLines.some((l) => l.includes(s))) secretLeaks.push(`a log line carried ${s.slice(0, 8)}…`);
  }
  let duplicateCommentsCreated = 0;
  for (const n of fake.markedCreated.values()) duplicateCommentsCreated += Math.max(0, n - 1);
  let duplicateCheckRuns = 0;
  for (const [sha, n] of runsBySha) duplicateCheckRuns += Math.max(0, n - (deliveriesBySha.get(sha) ?? 0));
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    options: {
      deliveries: options.deliveries,
      prs: options.prs,
      concurrency: options.concurrency,
      seed: options.seed,
      timeBudgetMs: options.timeBudgetMs,
      ...(options.writeSpacingMs === undefined ? {} : { writeSpacingMs: options.writeSpacingMs }),
    },
    replicas: servers.length,
    redis: redis !== null,
    duplicateCommentsCreated,
    duplicateCheckRuns,
    counts: scenario.counts,
    sent,
    statuses,
    latencyMs: { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 },
    sendSeconds,
    drainSeconds,
    drained,
    lostEvents,
    duplicateReviewComments,
    duplicateReplies,
    staleFinalComments,
    checksInProgress: runs.filter((r) => r.status !== 'completed').length,
    checkRuns: runs.length,
    failedReviews: runs.filter((r) => /could not run/i.test(r.title)).length,
    peakRssBytes,
    githubRequests: fake.requests,
    openApiChecked: fake.validated,
    openApiProblems: [...new Set(fake.errors)].slice(0, 20),
    unhandled: allLines.filter((l) => l.startsWith('RELIABILITY-UNHANDLED') || l.startsWith('RELIABILITY-UNCAUGHT')).slice(0, 10),
    serverExit: servers.map((s) => s.exited()).find((e) => e !== null) ?? null,
    secretLeaks,
  };
}
