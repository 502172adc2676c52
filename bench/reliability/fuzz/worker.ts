import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { specialInputs } from './inputs.js';
import { preview, prototypeKeys, runCase } from './run-case.js';
import { fuzzTargets } from './targets.js';

/**
 * Runs one target's cases in a worker thread, so the parent can end it when one input runs past
 * its deadline (a synchronous parser cannot be interrupted otherwise). `progress[0]` holds the
 * index of the case running, `clock[0]` when it started.
 */
export interface WorkerJob {
  target: string;
  seed: number;
  cases: number;
  /** Index of the first random case to run. */
  from: number;
  /** Index of the first fixed attack to run; they run before the random cases, at index -1 - i. */
  specialsFrom: number;
  bigBytes: number;
  progress: SharedArrayBuffer;
  clock: SharedArrayBuffer;
}

export interface WorkerResult {
  ran: number;
  maxMs: number;
  slowest: string;
  totalMs: number;
  crashes: string[];
  problems: string[];
  pollution: string[];
  heapBeforeBytes: number;
  heapAfterBytes: number;
  heapPeakBytes: number;
  specials: { name: string; ms: number }[];
}

const job = workerData as WorkerJob;
const progress = new Int32Array(job.progress);
const clock = new Float64Array(job.clock);
const target = fuzzTargets().find((t) => t.id === job.target);
if (!target) throw new Error(`no fuzz target ${job.target}`);
const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => getHeapStatistics().used_heap_size;

gc?.();
const result: WorkerResult = {
  ran: 0,
  maxMs: 0,
  slowest: '',
  totalMs: 0,
  crashes: [],
  problems: [],
  pollution: [],
  heapBeforeBytes: heap(),
  heapAfterBytes: 0,
  heapPeakBytes: 0,
  specials: [],
};
const baseline = prototypeKeys();
const record = (label: string, text: string) => {
  clock[0] = performance.now() + performance.timeOrigin;
  const outcome = runCase(target, text, baseline);
  result.ran++;
  result.totalMs += outcome.ms;
  if (outcome.ms > result.maxMs) {
    result.maxMs = outcome.ms;
    result.slowest = `${label} ${preview(text)}`;
  }
  if (outcome.crash) result.crashes.push(`${label}: ${outcome.crash} on ${preview(text)}`);
  for (const p of outcome.problems) result.problems.push(`${label}: ${p} on ${preview(text)}`);
  for (const p of outcome.pollution) result.pollution.push(`${label}: ${p} on ${preview(text)}`);
  result.heapPeakBytes = Math.max(result.heapPeakBytes, heap());
  return outcome.ms;
};

const specials = specialInputs(job.bigBytes);
for (let i = job.specialsFrom; i < specials.length; i++) {
  const special = specials[i]!;
  Atomics.store(progress, 0, -1 - i);
  result.specials.push({ name: special.name, ms: record(special.name, special.text) });
}
const inputs = fc.sample(target.inputs, { seed: job.seed, numRuns: job.cases });
for (let i = job.from; i < inputs.length; i++) {
  Atomics.store(progress, 0, i);
  record(`case ${i}`, inputs[i]!);
}
gc?.();
result.heapAfterBytes = heap();
result.crashes = result.crashes.slice(0, 20);
result.problems = result.problems.slice(0, 20);
result.pollution = result.pollution.slice(0, 20);
parentPort?.postMessage(result);
