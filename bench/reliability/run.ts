import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { runFuzz } from './fuzz/run-fuzz.js';
import { runLoad } from './load/run-load.js';

/**
 * `npm run bench:reliability`: the load run against the App's real server process, then the
 * fuzzing of every parser and loader in worker threads. Prints the figures and writes them to
 * artifacts/reliability/. Loopback only; every phase has a count and a time budget.
 *
 *   --only load|fuzz      one phase
 *   --deliveries 2000     webhook deliveries in the load run
 *   --write-spacing-ms 0  spacing between an installation's writes and its notifying writes (omit the
 *                         flag for the App's 1,000 ms and 3,000 ms)
 *   --cases 10000         fuzz cases per target
 *   --replicas 2          App processes behind a round-robin proxy (redeliveries go to another one)
 *   --redis               the replicas share a real Redis (REDIS_URL)
 *   --installations 4     pull requests spread over that many installations (writes are paced per installation)
 *   --latency-ms 50-300   each fake GitHub answer waits a seeded time in that range
 *   --kill 0.4            SIGKILL the first replica once 40% of the deliveries are sent
 *   --lock-seconds 10     the replicas' job lock: a killed replica's jobs run again within twice this
 *   --nice 10             once the App and Redis run, the bench's own threads (sender, fake GitHub) at this nice
 *   --own-sessions        each App process and Redis in a session of its own (its own scheduling group)
 */
const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    deliveries: { type: 'string', default: '2000' },
    prs: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '16' },
    seed: { type: 'string', default: '9' },
    'write-spacing-ms': { type: 'string' },
    'load-budget-s': { type: 'string', default: '900' },
    cases: { type: 'string', default: '10000' },
    replicas: { type: 'string', default: '1' },
    redis: { type: 'boolean', default: false },
    installations: { type: 'string', default: '1' },
    'latency-ms': { type: 'string' },
    kill: { type: 'string' },
    'lock-seconds': { type: 'string' },
    nice: { type: 'string' },
    'own-sessions': { type: 'boolean', default: false },
    'deadline-ms': { type: 'string', default: '10000' },
    'big-bytes': { type: 'string', default: String(10 * 1024 * 1024) },
  },
});

const log = (line: string) => process.stdout.write(`${line}\n`);
const out = new URL('../../artifacts/reliability/', import.meta.url);
mkdirSync(out, { recursive: true });
const machine = {
  date: new Date().toISOString(),
  node: process.version,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
};
log(JSON.stringify(machine));
let failed = false;

if (values.only === undefined || values.only === 'load') {
  log(`load: ${values.deliveries} deliveries`);
  const latency = /^(\d+)-(\d+)$/.exec(values['latency-ms'] ?? '');
  const report = await runLoad({
    ...(latency ? { latencyMs: { min: Number(latency[1]), max: Number(latency[2]) } } : {}),
    ...(values.kill === undefined ? {} : { killAt: Number(values.kill) }),
    ...(values['lock-seconds'] === undefined ? {} : { lockSeconds: Number(values['lock-seconds']) }),
    ...(values.nice === undefined ? {} : { nice: Number(values.nice) }),
    ...(values['own-sessions'] ? { ownSessions: true } : {}),
    deliveries: Number(values.deliveries),
    prs: Number(values.prs),
    installations: Number(values.installations),
    concurrency: Number(values.concurrency),
    seed: Number(values.seed),
    timeBudgetMs: Number(values['load-budget-s']) * 1000,
    replicas: Number(values.replicas),
    redis: values.redis,
    ...(values['write-spacing-ms'] === undefined ? {} : { writeSpacingMs: Number(values['write-spacing-ms']) }),
    log,
  });
  const name =
    report.replicas === 1 && !report.redis
      ? 'load.json'
      : `load-${report.replicas}-replicas${report.redis ? '-redis' : ''}${report.killed ? '-killed' : ''}.json`;
  writeFileSync(new URL(name, out), `${JSON.stringify({ machine, ...report }, null, 2)}\n`);
  log(JSON.stringify(report, null, 2));
  failed ||=
    report.lostEvents.length + report.duplicateReviewComments.length + report.duplicateReplies.length + report.staleFinalComments.length >
      0 ||
    report.checksInProgress > 0 ||
    // One replica, or replicas sharing Redis, never create a second comment or review a head twice; without Redis they may.
    ((report.replicas === 1 || report.redis) && report.duplicateCommentsCreated + report.duplicateCheckRuns > 0) ||
    report.unhandled.length > 0 ||
    report.secretLeaks.length > 0 ||
    !report.drained;
}

if (values.only === undefined || values.only === 'fuzz') {
  log(`fuzz: ${values.cases} cases per target`);
  const report = await runFuzz({
    cases: Number(values.cases),
    deadlineMs: Number(values['deadline-ms']),
    bigBytes: Number(values['big-bytes']),
    log,
  });
  writeFileSync(new URL('fuzz.json', out), `${JSON.stringify({ machine, ...report }, null, 2)}\n`);
  failed ||= report.targets.some((t) => t.crashes.length + t.problems.length + t.pollution.length + t.hangs.length > 0);
}

log(failed ? 'reliability: FAILED (see above)' : 'reliability: all invariants held');
process.exitCode = failed ? 1 : 0;
