import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { sign } from '@octokit/webhooks-methods';
import { COMMENT_MARKER } from '../../../src/report/comment.js';
import { startSimulatedPrometheus } from '../../../test/helpers/prometheus/index.js';
import { startRedis } from '../../../test/helpers/redis/server.js';
import { EXAMPLE_REPO } from '../../../test/helpers/payloads.js';
import { LoadFakeGitHub } from './fake-github-server.js';
import { quantile, writeSpacing } from './load-report.js';
import type { LoadOptions, LoadReport } from './load-report.js';
import { findSecretLeaks, judgeOutcome } from './outcome.js';
import { idleReplicas, queueCounters, runningJobs, webhookStages } from './replica-metrics.js';
import { lowerOwnPriority, watchOwnLoop } from './priority.js';
import { buildScenario } from './scenario.js';
import type { Delivery } from './scenario.js';
import { newSecrets, startServerProcess } from './server-process.js';
import type { ServerProcess } from './server-process.js';

export type { LoadOptions, LoadReport };

/**
 * One load run: the App's processes (and Redis) started, the scenario's deliveries sent with
 * `concurrency` in flight (a replica killed on the way when asked), the queue drained, and what
 * GitHub was left with judged (outcome.ts).
 */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const { log } = options;
  const started = Date.now();
  const prom = await startSimulatedPrometheus();
  const fake = await LoadFakeGitHub.start(EXAMPLE_REPO.owner, EXAMPLE_REPO.repo);
  fake.countMarker = COMMENT_MARKER;
  const secrets = newSecrets();
  const bearer = `prom-bearer-${Date.now()}`;
  if (options.latencyMs) fake.latencyMs = options.latencyMs;
  const ownSession = options.ownSessions === true;
  const redis = options.redis ? await startRedis({ ownSession }) : null;
  const servers: ServerProcess[] = [];
  // A replica that does not start ends the run without leaving the others, Redis or Prometheus running.
  const stopAll = async () => {
    for (const s of servers) await s.stop();
    await prom.stop();
    await redis?.stop();
    await fake.close();
  };
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    const started = startServerProcess({
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
      ownSession,
    });
    servers.push(
      await started.catch(async (err: unknown) => {
        await stopAll();
        throw err;
      }),
    );
  }
  if (options.nice !== undefined)
    log(`  the bench's ${lowerOwnPriority(options.nice)} threads now at nice ${options.nice}; the App and Redis as started`);
  const benchLoop = watchOwnLoop();
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

  // The machine's 1-minute load average through the run: the figures are read beside it.
  const loads: number[] = [loadavg()[0] ?? 0];
  const loadSampler = setInterval(() => loads.push(loadavg()[0] ?? 0), 5_000).unref();
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
      // Quiet is not idle: a job waiting its installation's write turn (up to 30 s when
      // notifying writes queue up) makes no request meanwhile. Drained once no replica holds work.
      if (await idleReplicas(servers.filter((_, i) => !dead.has(i)))) {
        drained = true;
        break;
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const drainSeconds = (quietSince - drainStart) / 1000;
  const activeSeconds = (quietSince - sendStart) / 1000;
  const benchLoopDelayMs = benchLoop();
  log(`  the bench's own event loop: delay p99 ${benchLoopDelayMs.p99Ms} ms, max ${benchLoopDelayMs.maxMs} ms`);
  const peakRssBytes = Math.max(...servers.map((s) => s.peakRss() ?? 0)) || null;
  clearInterval(loadSampler);
  const queue = await queueCounters(servers.filter((_, i) => !dead.has(i)));
  const stages = await webhookStages(servers.filter((_, i) => !dead.has(i)));
  for (const [name, f] of Object.entries(stages))
    log(`  webhook stage ${name}: ${f.count} × mean ${f.meanMs} ms, p50 ${f.p50Ms} ms, p95 ${f.p95Ms} ms, p99 ${f.p99Ms} ms`);
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

  if (killed) killed.checksConcludedSince = inProgressAtKill.filter((id) => fake.checkRuns.get(id)?.status === 'completed').length;
  fake.checkSampled();
  const runs = [...fake.checkRuns.values()];
  const outcome = judgeOutcome(fake, scenario, delivered);
  const secretsToFind = [
    secrets.webhookSecret,
    bearer,
    ...secrets.privateKey
      .split('\n')
      .filter((l) => l.length > 40)
      .slice(0, 3),
  ];
  const secretLeaks = findSecretLeaks(fake, allLines, secretsToFind);
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
      ...(options.nice === undefined ? {} : { nice: options.nice }),
      ...(options.ownSessions === undefined ? {} : { ownSessions: options.ownSessions }),
    },
    writes: writeSpacing(fake.writeTimes),
    reviewsPerSecond: activeSeconds > 0 ? runs.filter((r) => r.status === 'completed').length / activeSeconds : 0,
    headsNeverReviewed: outcome.headsNeverReviewed,
    resent,
    killed,
    queue,
    webhookStages: stages,
    loadAverage: { min: Math.min(...loads), mean: loads.reduce((a, b) => a + b, 0) / loads.length, max: Math.max(...loads) },
    replicas: servers.length,
    redis: redis !== null,
    duplicateCommentsCreated: outcome.duplicateCommentsCreated,
    duplicateCheckRuns: outcome.duplicateCheckRuns,
    counts: scenario.counts,
    sent,
    statuses,
    benchLoopDelayMs,
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
    lostEvents: outcome.lostEvents,
    duplicateReviewComments: outcome.duplicateReviewComments,
    duplicateReplies: outcome.duplicateReplies,
    staleFinalComments: outcome.staleFinalComments,
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
