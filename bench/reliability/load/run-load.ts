import { writeFileSync } from 'node:fs';
import { sign } from '@octokit/webhooks-methods';
import { COMMENT_MARKER } from '../../../src/report/comment.js';
import { REPLY_MARKER } from '../../../src/github/overrides/explain.js';
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
  /** Undefined: the App's own spacing (GPU_JUSTIFY_WRITE_SPACING_MS), 1,000 ms between writes and 3,000 ms between notifying ones. */
  writeSpacingMs?: number;
  /** The whole run, sending and draining, stops after this. */
  timeBudgetMs: number;
  /** App processes behind a round-robin proxy (default 1); a redelivery goes to another replica. */
  replicas?: number;
  /** Replicas share a real Redis (`REDIS_URL`). */
  redis?: boolean;
  /** Installations the pull requests are spread over (default 1): GitHub paces writes per installation. */
  installations?: number;
  /** Each fake GitHub answer waits this long (uniform between the two, ms); absent: at once. */
  latencyMs?: { min: number; max: number };
  /** SIGKILL the first replica once this share of the deliveries is sent (0 < kill < 1): its jobs must be finished by the others. */
  killAt?: number;
  /** The replicas' job lock (`GPU_JUSTIFY_JOB_LOCK_SECONDS`): how soon a dead replica's job is taken up. */
  lockSeconds?: number;
  log: (line: string) => void;
}

export interface LoadReport {
  options: Omit<LoadOptions, 'log'>;
  counts: Record<string, number>;
  sent: number;
  statuses: Record<string, number>;
  /** Webhook answers as the sender saw them: connection, the App's handling, and the sender's own waits. */
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  /** The same answers as the App timed them (Probot's request log, `responseTime`), from request to response. */
  appLatencyMs: { p50: number; p95: number; p99: number; max: number; count: number };
  sendSeconds: number;
  /** From the last delivery sent to the last GitHub request the App made. */
  drainSeconds: number;
  drained: boolean;
  /** Reviews concluded (check runs completed) per second, from the first delivery to the last GitHub request. */
  reviewsPerSecond: number;
  /** Pull requests whose final head has no concluded check run, commands without a reaction, explain/help without a reply. */
  lostEvents: string[];
  duplicateReviewComments: string[];
  duplicateReplies: string[];
  staleFinalComments: string[];
  /** Review comments created beyond one per PR, those settled and deleted since included. */
  duplicateCommentsCreated: number;
  /** Check runs beyond one per head commit (a head is reviewed once, whatever asks again). */
  duplicateCheckRuns: number;
  /** Heads pushed but superseded by a newer push before any review began: never reviewed, as meant. */
  headsNeverReviewed: number;
  /** Deliveries a killed replica never answered, sent again to another (as an operator redelivers a failed one). */
  resent: number;
  killed: {
    pid: number;
    afterDeliveries: number;
    /** Jobs the killed replica was running (its /metrics just before the kill). */
    jobsRunning: number;
    /** Check runs in progress on GitHub at the kill, and how many of them ended concluded. */
    checksInProgress: number;
    checksConcludedSince: number;
  } | null;
  /** Content-creating or changing writes to GitHub as it saw them, per installation: their spacing and busiest minute, the worst installation's. */
  writes: { count: number; installations: number; minGapMs: number | null; p5GapMs: number | null; busiestMinute: number };
  /** The surviving replicas' queue counters from /metrics, summed; event-loop delay, the worst replica's. */
  queue: Record<string, number>;
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
  if (options.latencyMs) fake.latencyMs = options.latencyMs;
  const redis = options.redis ? await startRedis() : null;
  const servers: ServerProcess[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    servers.push(
      await startServerProcess({
        githubHost: fake.origin,
        secrets,
        env: {
          PROMETHEUS_URL: prom.url,
          PROMETHEUS_BEARER_TOKEN: bearer,
          ...(redis ? { REDIS_URL: redis.url } : {}),
          ...(options.lockSeconds === undefined ? {} : { GPU_JUSTIFY_JOB_LOCK_SECONDS: String(options.lockSeconds) }),
          ...(process.env['GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS']
            ? { GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS: process.env['GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS'] }
            : {}),
          ...(process.env['GPU_JUSTIFY_WORKER_CONCURRENCY']
            ? { GPU_JUSTIFY_WORKER_CONCURRENCY: process.env['GPU_JUSTIFY_WORKER_CONCURRENCY'] }
            : {}),
          // With the write spacing lifted the run measures the App, not GitHub's hourly allowance either.
          ...(options.writeSpacingMs === undefined ? {} : { GPU_JUSTIFY_CREATES_PER_HOUR: '1000000' }),
        },
        ...(options.writeSpacingMs === undefined ? {} : { writeSpacingMs: options.writeSpacingMs }),
      }),
    );
  }
  const dead = new Set<number>();
  const server = servers[0] as ServerProcess;
  log(
    `App processes ${servers.map((s) => `${s.pid} at ${s.url}`).join(', ')}; fake GitHub at ${fake.origin}; Prometheus at ${prom.url}` +
      (redis ? `; Redis at ${redis.url}` : ''),
  );
  // Round robin, as a load balancer would; a redelivery lands on another replica than the original.
  const firstReplica = new Map<string, number>();
  let turn = 0;
  const alive = (i: number): number => {
    for (let k = 0; k < servers.length; k++) if (!dead.has((i + k) % servers.length)) return (i + k) % servers.length;
    return i % servers.length;
  };
  const replicaFor = (d: Delivery): number => {
    const first = firstReplica.get(d.id);
    if (first !== undefined) return alive(first + 1);
    const chosen = alive(turn++);
    firstReplica.set(d.id, chosen);
    return chosen;
  };
  const scenario = buildScenario(options);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const delivered: Delivery[] = [];
  const deadline = started + options.timeBudgetMs;

  let resent = 0;
  const deliver = async (d: Delivery, again = false): Promise<void> => {
    const body = JSON.stringify(d.payload);
    const t0 = performance.now();
    let status: string;
    const index = again ? alive((firstReplica.get(d.id) ?? 0) + 1) : replicaFor(d);
    try {
      const target = servers[index] ?? server;
      const res = await fetch(`${target.url}/api/github/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': d.event,
          'x-github-delivery': d.id,
          'x-hub-signature-256': await sign(secrets.webhookSecret, body),
          'user-agent': 'GitHub-Hookshot/load',
          // One connection per delivery, as GitHub's are: a kept-alive socket the App closed after
          // its idle timeout would fail the next delivery on the sender's side, not the App's.
          connection: 'close',
        },
        body,
        signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())),
      });
      await res.text();
      status = String(res.status);
    } catch (err) {
      status = err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'network-error';
    }
    // A replica killed with the delivery in flight never answered it: sent again elsewhere.
    if (status === 'network-error' && dead.has(index) && !again) {
      resent++;
      return deliver(d, true);
    }
    latencies.push(performance.now() - t0);
    statuses[status] = (statuses[status] ?? 0) + 1;
    delivered.push(d);
  };

  // Steps go out in order, `concurrency` deliveries in flight; a step's pushes happen as it starts.
  const sendStart = Date.now();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let killed: LoadReport['killed'] = null;
  let inProgressAtKill: number[] = [];
  const killAfter =
    options.killAt === undefined ? Infinity : Math.round(options.killAt * scenario.steps.reduce((n, st) => n + st.deliveries.length, 0));
  for (const step of scenario.steps) {
    if (Date.now() > deadline) break;
    step.apply(fake);
    for (const d of step.deliveries) {
      if (sent >= killAfter && killed === null && servers.length > 1) {
        const victim = servers[0] as ServerProcess;
        // Mid-review: killed once it runs a job and a check run is in progress on GitHub (waiting at
        // most 20 s for both). With GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS=0 each job starts
        // its check in progress at once, so the victim's running jobs hold checks in progress.
        let jobsRunning = 0;
        for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
          jobsRunning = await runningJobs(victim);
          if (jobsRunning > 0 && [...fake.checkRuns.values()].some((r) => r.status !== 'completed')) break;
        }
        inProgressAtKill = [...fake.checkRuns.values()].filter((r) => r.status !== 'completed').map((r) => r.id);
        // Marked dead first: a delivery in flight fails during the kill and must be sent elsewhere.
        dead.add(0);
        await victim.kill();
        killed = {
          pid: victim.pid,
          afterDeliveries: sent,
          jobsRunning,
          checksInProgress: inProgressAtKill.length,
          checksConcludedSince: 0,
        };
        log(
          `  killed replica ${victim.pid} (SIGKILL) after ${sent} deliveries: ${jobsRunning} jobs running on it, ${inProgressAtKill.length} check runs in progress`,
        );
      }
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
  const drainSeconds = (quietSince - drainStart) / 1000;
  const activeSeconds = (quietSince - sendStart) / 1000;
  const peakRssBytes = Math.max(...servers.map((s) => s.peakRss() ?? 0)) || null;
  const queue = await queueCounters(servers.filter((_, i) => !dead.has(i)));
  for (const s of servers) await s.stop();
  const allLines = servers.flatMap((s) => s.lines);
  writeFileSync(new URL('../../../artifacts/reliability/server.log', import.meta.url), `${allLines.join('\n')}\n`);
  await prom.stop();
  await redis?.stop();
  await fake.close();

  // The closest writes of one installation, named: what to look at when the spacing is short.
  const closest = fake.writeLog
    .map((w, i) => ({ w, prev: fake.writeLog.slice(0, i).findLast((p) => p.installation === w.installation) }))
    .filter((x) => x.prev !== undefined)
    .map((x) => ({ gap: x.w.at - (x.prev?.at ?? 0), text: `${x.w.installation}: ${x.prev?.what} → ${x.w.what}` }))
    .sort((a, b) => a.gap - b.gap)
    .slice(0, 5);
  for (const c of closest) log(`  closest writes ${c.gap} ms apart, installation ${c.text}`);

  // What every delivery should have left behind.
  const runs = [...fake.checkRuns.values()];
  if (killed) killed.checksConcludedSince = inProgressAtKill.filter((id) => fake.checkRuns.get(id)?.status === 'completed').length;
  const runsBySha = new Map<string, number>();
  for (const r of runs) runsBySha.set(r.headSha, (runsBySha.get(r.headSha) ?? 0) + 1);
  const lostEvents: string[] = [];
  const distinct = new Map<string, Delivery>();
  for (const d of delivered) distinct.set(d.id, d);
  // Every pull request ends with a concluded check on its final head; heads pushed over before
  // a review began are superseded, not lost.
  const prs = new Set([...distinct.values()].map((d) => d.pr));
  for (const pr of prs) {
    const head = scenario.finalHead.get(pr) ?? '';
    if (!runs.some((r) => r.headSha === head && r.status === 'completed'))
      lostEvents.push(`#${pr}: no concluded check run on its final head ${head.slice(0, 7)}`);
  }
  const pushedHeads = new Set([...distinct.values()].filter((d) => d.sha !== undefined).map((d) => d.sha as string));
  const headsNeverReviewed = [...pushedHeads].filter((sha) => !runsBySha.has(sha)).length;
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
  for (const [pr, expected] of expectedByPr) {
    const n = repliesByPr.get(pr) ?? 0;
    if (n < expected) lostEvents.push(`#${pr}: ${n} replies to ${expected} explain/help commands`);
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
  for (const n of runsBySha.values()) duplicateCheckRuns += Math.max(0, n - 1);
  const sorted = [...latencies].sort((a, b) => a - b);
  const appTimes = allLines
    .flatMap((l) => {
      if (!l.includes('"responseTime"') || !l.includes('POST /api/github/webhooks')) return [];
      const t = (JSON.parse(l) as { responseTime?: unknown }).responseTime;
      return typeof t === 'number' ? [t] : [];
    })
    .sort((a, b) => a - b);
  return {
    options: {
      deliveries: options.deliveries,
      prs: options.prs,
      ...(options.installations === undefined ? {} : { installations: options.installations }),
      concurrency: options.concurrency,
      seed: options.seed,
      timeBudgetMs: options.timeBudgetMs,
      ...(options.writeSpacingMs === undefined ? {} : { writeSpacingMs: options.writeSpacingMs }),
      ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
      ...(options.killAt === undefined ? {} : { killAt: options.killAt }),
      ...(options.lockSeconds === undefined ? {} : { lockSeconds: options.lockSeconds }),
    },
    writes: writeSpacing(fake.writeTimes),
    reviewsPerSecond: activeSeconds > 0 ? runs.filter((r) => r.status === 'completed').length / activeSeconds : 0,
    headsNeverReviewed,
    resent,
    killed,
    queue,
    replicas: servers.length,
    redis: redis !== null,
    duplicateCommentsCreated,
    duplicateCheckRuns,
    counts: scenario.counts,
    sent,
    statuses,
    latencyMs: { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 },
    appLatencyMs: {
      p50: quantile(appTimes, 0.5),
      p95: quantile(appTimes, 0.95),
      p99: quantile(appTimes, 0.99),
      max: appTimes.at(-1) ?? 0,
      count: appTimes.length,
    },
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
    serverExit:
      servers
        .filter((_, i) => !dead.has(i))
        .map((s) => s.exited())
        .find((e) => e !== null && e.signal !== 'SIGTERM') ?? null,
    secretLeaks,
  };
}

/** The queue's counters on each replica's /metrics, summed by series; the event loop's delay, the worst replica's. */
async function queueCounters(servers: ServerProcess[]): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const s of servers) {
    const text = await fetch(`${s.url}/metrics`).then(
      (r) => r.text(),
      () => '',
    );
    for (const m of text.matchAll(
      /^(gpu_justify_(?:queue_[a-z_]+|reruns_coalesced_total|coordination_fallbacks_total|nodejs_eventloop_lag_(?:p99|max)_seconds)(?:\{[^}]*\})?) ([0-9.e+-]+)$/gm,
    )) {
      const name = m[1] as string;
      if (name.includes('_bucket') || name.startsWith('gpu_justify_queue_jobs{')) continue;
      // Delay is per process: the worst one tells what a webhook waited behind.
      totals[name] = name.includes('eventloop') ? Math.max(totals[name] ?? 0, Number(m[2])) : (totals[name] ?? 0) + Number(m[2]);
    }
  }
  return totals;
}

/** Jobs a replica runs now, from its /metrics (0 when it does not answer). */
async function runningJobs(server: ServerProcess): Promise<number> {
  const text = await fetch(`${server.url}/metrics`).then(
    (r) => r.text(),
    () => '',
  );
  return Number(/^gpu_justify_worker_jobs_running ([0-9.]+)$/m.exec(text)?.[1] ?? 0);
}

/** How far apart one installation's writes reached GitHub, and the most in any 60 s; the worst installation's. */
function writeSpacing(byInstallation: Map<number, number[]>): LoadReport['writes'] {
  const each = [...byInstallation.values()].map(installationWrites);
  const low = (values: (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null);
    return known.length > 0 ? Math.min(...known) : null;
  };
  return {
    count: each.reduce((n, w) => n + w.count, 0),
    installations: each.length,
    minGapMs: low(each.map((w) => w.minGapMs)),
    p5GapMs: low(each.map((w) => w.p5GapMs)),
    busiestMinute: Math.max(0, ...each.map((w) => w.busiestMinute)),
  };
}

function installationWrites(times: number[]): Omit<LoadReport['writes'], 'installations'> {
  const sorted = [...times].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((t, i) => t - (sorted[i] as number));
  gaps.sort((a, b) => a - b);
  let busiestMinute = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= 60_000) j++;
    busiestMinute = Math.max(busiestMinute, i - j + 1);
  }
  return { count: sorted.length, minGapMs: gaps[0] ?? null, p5GapMs: gaps.length > 0 ? quantile(gaps, 0.05) : null, busiestMinute };
}
