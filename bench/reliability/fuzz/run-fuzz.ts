import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { specialInputs } from './inputs.js';
import { preview } from './run-case.js';
import { fuzzTargets } from './targets.js';
import type { WorkerJob, WorkerResult } from './worker.js';

interface FuzzTargetReport {
  id: string;
  cases: number;
  ran: number;
  seconds: number;
  maxMsPerInput: number;
  meanMsPerInput: number;
  slowest: string;
  crashes: string[];
  problems: string[];
  pollution: string[];
  /** Inputs still running at the deadline: the worker was ended and the run went on after them. */
  hangs: string[];
  heapBeforeMiB: number;
  heapAfterMiB: number;
  heapPeakMiB: number;
  specials: { name: string; ms: number }[];
}

export interface FuzzReport {
  seed: number;
  cases: number;
  deadlineMs: number;
  bigBytes: number;
  targets: FuzzTargetReport[];
}

const MiB = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;

/** One worker run from a starting point; resolves with its result or the index that hung. */
function runWorker(
  job: Omit<WorkerJob, 'progress' | 'clock'>,
  deadlineMs: number,
): Promise<{ result: WorkerResult } | { hungAt: number; ms: number }> {
  const progress = new SharedArrayBuffer(4);
  const clock = new SharedArrayBuffer(8);
  const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: { ...job, progress, clock } });
  const index = new Int32Array(progress);
  const started = new Float64Array(clock);
  return new Promise((resolve, reject) => {
    const watch = setInterval(() => {
      const since = started[0] === 0 ? 0 : performance.now() + performance.timeOrigin - (started[0] ?? 0);
      if (since > deadlineMs) {
        clearInterval(watch);
        const hungAt = Atomics.load(index, 0);
        void worker.terminate().then(() => resolve({ hungAt, ms: since }));
      }
    }, 50);
    worker.once('message', (result: WorkerResult) => {
      clearInterval(watch);
      void worker.terminate();
      resolve({ result });
    });
    worker.once('error', (err: unknown) => {
      clearInterval(watch);
      reject(err instanceof Error ? err : new Error(String(err)));
    });
  });
}

export async function runFuzz(options: {
  cases: number;
  deadlineMs: number;
  bigBytes: number;
  seed?: number;
  log: (line: string) => void;
}): Promise<FuzzReport> {
  const seed = options.seed ?? 20_240_901;
  const specials = specialInputs(options.bigBytes);
  const reports: FuzzTargetReport[] = [];
  for (const target of fuzzTargets()) {
    const t0 = Date.now();
    const hangs: string[] = [];
    const parts: WorkerResult[] = [];
    let from = 0;
    let specialsFrom = 0;
    for (;;) {
      const outcome = await runWorker(
        { target: target.id, seed, cases: options.cases, from, specialsFrom, bigBytes: options.bigBytes },
        options.deadlineMs,
      );
      if ('result' in outcome) {
        parts.push(outcome.result);
        break;
      }
      const at = outcome.hungAt;
      if (at < 0) {
        hangs.push(`${specials[-1 - at]?.name ?? at}: still running after ${Math.round(outcome.ms)} ms`);
        specialsFrom = -at;
      } else {
        const input = fc.sample(target.inputs, { seed, numRuns: at + 1 })[at] ?? '';
        hangs.push(`case ${at}: still running after ${Math.round(outcome.ms)} ms on ${preview(input)}`);
        specialsFrom = specials.length;
        from = at + 1;
      }
    }
    const all = <K extends 'crashes' | 'problems' | 'pollution'>(k: K) => parts.flatMap((p) => p[k]);
    const ran = parts.reduce((n, p) => n + p.ran, 0) + hangs.length;
    const slowestPart = parts.reduce((a, b) => (b.maxMs > a.maxMs ? b : a));
    const report: FuzzTargetReport = {
      id: target.id,
      cases: options.cases,
      ran,
      seconds: (Date.now() - t0) / 1000,
      maxMsPerInput: Math.round(slowestPart.maxMs * 10) / 10,
      meanMsPerInput: Math.round((parts.reduce((n, p) => n + p.totalMs, 0) / Math.max(1, ran)) * 100) / 100,
      slowest: slowestPart.slowest,
      crashes: all('crashes'),
      problems: all('problems'),
      pollution: all('pollution'),
      hangs,
      heapBeforeMiB: MiB(parts[0]?.heapBeforeBytes ?? 0),
      heapAfterMiB: MiB(parts.at(-1)?.heapAfterBytes ?? 0),
      heapPeakMiB: MiB(Math.max(...parts.map((p) => p.heapPeakBytes))),
      specials: parts.flatMap((p) => p.specials).map((s) => ({ name: s.name, ms: Math.round(s.ms) })),
    };
    reports.push(report);
    options.log(
      `  ${target.id}: ${ran} inputs in ${report.seconds.toFixed(1)} s, max ${report.maxMsPerInput} ms/input, ` +
        `crashes ${report.crashes.length}, contract ${report.problems.length}, pollution ${report.pollution.length}, hangs ${hangs.length}, ` +
        `heap ${report.heapBeforeMiB} → ${report.heapAfterMiB} MiB (peak ${report.heapPeakMiB})`,
    );
  }
  return { seed, cases: options.cases, deadlineMs: options.deadlineMs, bigBytes: options.bigBytes, targets: reports };
}
