import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ReviewResult } from '../domain/review.js';
import { UnreadablePathError } from '../domain/files.js';
import { fail, ok } from '../domain/result.js';
import type { ReviewInput } from '../review/index.js';
import type { FromWorker, PortCall, ReviewJob, ToWorker } from './review-messages.js';
import { inThisThread, type ReviewRunner } from './review-runner.js';
import { GpuJustifyError } from '../domain/errors.js';

/**
 * A review's worker stopped before the review finished: it ran out of the memory it may use, or
 * failed. The review reached no verdict.
 */
export class ReviewWorkerError extends GpuJustifyError {
  override readonly kind = 'review-worker';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ReviewWorkerError';
  }
}

export interface ReviewPoolOptions {
  /** How many reviews run at once, each in a worker of its own. */
  workers: number;
  /** The V8 heap a worker may grow to, MB: past it the worker is stopped and its review fails. */
  memoryMb: number;
}

interface Job {
  input: ReviewInput;
  signal: AbortSignal;
  resolve(result: ReviewResult): void;
  reject(err: unknown): void;
  /** Errors the ports threw here, by the number the worker knows them by. */
  errors: Map<number, unknown>;
  /** Stops listening to the signal. */
  detach(): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/**
 * Worker threads that run the App's reviews, so nothing a pull request sends is parsed, rendered,
 * followed or judged on the thread that answers webhooks and `/ping`. Each review runs in a worker
 * of its own, one at a time per worker, taking turns in the order they came: a review held by a
 * hostile file holds one worker, never another review's. At its deadline (the run's signal) a
 * review still waiting leaves the queue, and one running has its worker terminated and replaced.
 * Workers start on first use, stay for the next review, and do not keep the process alive.
 */
export class ReviewPool implements ReviewRunner {
  readonly #waiting: Job[] = [];
  readonly #slots = new Set<Slot>();
  #closed = false;

  constructor(readonly options: ReviewPoolOptions) {}

  run(input: ReviewInput, signal: AbortSignal): Promise<ReviewResult> {
    return new Promise<ReviewResult>((resolve, reject) => {
      if (this.#closed) return reject(new ReviewWorkerError('the review workers are shut down'));
      if (signal.aborted) return reject(signal.reason as Error);
      const abort = () => this.#abort(job);
      const job: Job = { input, signal, resolve, reject, errors: new Map(), detach: () => signal.removeEventListener('abort', abort) };
      signal.addEventListener('abort', abort, { once: true });
      this.#waiting.push(job);
      this.#dispatch();
    });
  }

  /** Starts a worker ahead of the first review, so it does not wait for one to load. */
  warm(): void {
    if (!this.#closed && this.#slots.size === 0) this.#start();
  }

  /** Workers alive, and reviews waiting for one: for tests and diagnostics. */
  get state(): { workers: number; busy: number; waiting: number } {
    const busy = [...this.#slots].filter((s) => s.job !== null).length;
    return { workers: this.#slots.size, busy, waiting: this.#waiting.length };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#waiting.splice(0)) this.#fail(job, new ReviewWorkerError('the review workers are shut down'));
    const slots = [...this.#slots];
    this.#slots.clear();
    for (const slot of slots) if (slot.job) this.#fail(slot.job, new ReviewWorkerError('the review workers are shut down'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  #dispatch(): void {
    while (this.#waiting.length > 0) {
      const slot = [...this.#slots].find((s) => s.job === null) ?? (this.#slots.size < this.options.workers ? this.#start() : null);
      if (!slot) return;
      const job = this.#waiting.shift() as Job;
      slot.job = job;
      slot.worker.ref();
      this.#post(slot, { kind: 'review', job: jobOf(job.input) });
    }
  }

  #start(): Slot {
    const source = import.meta.url.endsWith('.ts');
    const url = new URL(source ? './review-worker.ts' : './review-worker.js', import.meta.url);
    const resourceLimits = { maxOldGenerationSizeMb: this.options.memoryMb };
    // From sources (tests, tsx) the worker registers the TypeScript loader first: a worker does
    // not inherit its parent's.
    const worker = source
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, {
          eval: true,
          resourceLimits,
        })
      : new Worker(url, { resourceLimits });
    const slot: Slot = { worker, job: null };
    worker.on('message', (message: FromWorker) => this.#receive(slot, message));
    worker.on('error', (err: Error & { code?: string }) => {
      const words =
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `the review ran out of memory: its worker may use ${this.options.memoryMb} MB (GPU_JUSTIFY_REVIEW_WORKER_MEMORY_MB)`
          : `the review's worker failed: ${err.message}`;
      this.#lost(slot, new ReviewWorkerError(words, { cause: err }));
    });
    worker.on('exit', (code) => this.#lost(slot, new ReviewWorkerError(`the review's worker stopped (exit ${code})`)));
    worker.unref();
    this.#slots.add(slot);
    return slot;
  }

  #receive(slot: Slot, message: FromWorker): void {
    const job = slot.job;
    if (!job) return;
    if (message.kind === 'call') {
      void this.#answer(slot, job, message.call, message.request);
      return;
    }
    slot.job = null;
    slot.worker.unref();
    job.detach();
    if (message.ok) job.resolve(message.value);
    else {
      const { ref, name, text } = { ref: message.error.ref, name: message.error.name, text: message.error.message };
      job.reject(ref !== undefined && job.errors.has(ref) ? job.errors.get(ref) : new ReviewWorkerError(`${name}: ${text}`));
    }
    this.#dispatch();
  }

  async #answer(slot: Slot, job: Job, call: number, request: PortCall): Promise<void> {
    let answer: ToWorker;
    try {
      answer = { kind: 'answer', call, ...ok(await perform(job.input, request)) };
    } catch (err) {
      const ref = job.errors.size + 1;
      job.errors.set(ref, err);
      const { name, message } = err instanceof Error ? err : { name: 'Error', message: String(err) };
      const unreadable = err instanceof UnreadablePathError ? { unreadable: { path: err.path, why: err.why } } : {};
      answer = { kind: 'answer', call, ...fail({ name, message, ref, ...unreadable }) };
    }
    // A review stopped meanwhile has no one to answer.
    if (slot.job === job) this.#post(slot, answer);
  }

  #post(slot: Slot, message: ToWorker): void {
    try {
      slot.worker.postMessage(message);
    } catch (err) {
      // Data that cannot cross (a port answering with a function, say) fails the review, not the App.
      const job = slot.job;
      if (!job) return;
      this.#retire(slot);
      this.#fail(
        job,
        new ReviewWorkerError(`a review's data could not be handed to its worker: ${(err as Error).message}`, { cause: err }),
      );
    }
  }

  /** The run's deadline passed: out of the queue, or its worker stopped. */
  #abort(job: Job): void {
    const waiting = this.#waiting.indexOf(job);
    if (waiting >= 0) this.#waiting.splice(waiting, 1);
    const slot = [...this.#slots].find((s) => s.job === job);
    if (slot) this.#retire(slot);
    this.#fail(job, job.signal.reason);
    this.#dispatch();
  }

  /** A worker that died or failed: its review fails, another worker takes the next. */
  #lost(slot: Slot, err: ReviewWorkerError): void {
    if (!this.#slots.delete(slot)) return;
    if (slot.job) this.#fail(slot.job, err);
    slot.job = null;
    this.#dispatch();
  }

  /** Takes a worker out of the pool and terminates it, whatever it is doing. */
  #retire(slot: Slot): void {
    this.#slots.delete(slot);
    slot.job = null;
    void slot.worker.terminate();
  }

  /** The review fails with `err`. */
  #fail(job: Job, err: unknown): void {
    job.detach();
    job.reject(err);
  }
}

/** A review's data for its worker: the ports replaced by what they offer. */
function jobOf(input: ReviewInput): ReviewJob {
  const shape = (reader: ReviewInput['changes']['base']) => ({
    label: reader.label,
    list: reader.list !== undefined,
    dirs: reader.dirs !== undefined,
    notAFile: reader.notAFile !== undefined,
    contentId: reader.contentId !== undefined,
  });
  const t = input.telemetry;
  return {
    policy: input.policy,
    ...(input.headSha === undefined ? {} : { headSha: input.headSha }),
    ...(input.catalog === undefined ? {} : { catalog: input.catalog }),
    ...(input.baseBranch === undefined ? {} : { baseBranch: input.baseBranch }),
    changes: {
      base: shape(input.changes.base),
      head: shape(input.changes.head),
      ...(input.changes.repositories ? { repositories: input.changes.repositories } : {}),
    },
    ...(t === undefined
      ? {}
      : {
          telemetry: {
            description: t.source.description,
            at: t.at,
            ...(t.windowMinutes === undefined ? {} : { windowMinutes: t.windowMinutes }),
            ...(t.rateWindowMinutes === undefined ? {} : { rateWindowMinutes: t.rateWindowMinutes }),
            allocation: t.allocation !== undefined,
          },
        }),
  };
}

/** A worker's call, made on the review's own ports. */
async function perform(input: ReviewInput, request: PortCall): Promise<unknown> {
  switch (request.op) {
    case 'changedPaths':
      return input.changes.changedPaths();
    case 'read':
      return input.changes[request.side].read(request.path);
    case 'list':
      return (await input.changes[request.side].list?.(request.dir)) ?? [];
    case 'dirs':
      return (await input.changes[request.side].dirs?.(request.dir)) ?? [];
    case 'notAFile':
      return (await input.changes[request.side].notAFile?.(request.path)) ?? null;
    case 'contentId':
      return (await input.changes[request.side].contentId?.(request.path)) ?? null;
    case 'query':
      if (!input.telemetry) throw new Error('this review has no telemetry');
      return input.telemetry.source.query(request.query, request.at, request.windowMinutes);
    case 'allocation':
      if (!input.telemetry?.allocation) throw new Error('this review has no OpenCost');
      return input.telemetry.allocation(request.query);
  }
}

/** The default number of review workers: two per CPU, at least 2 and at most 8. */
function defaultWorkers(): number {
  return Math.max(2, Math.min(8, availableParallelism() * 2));
}

const DEFAULT_WORKER_MEMORY_MB = 1024;

function envNumber(env: Record<string, string | undefined>, name: string): number | null {
  const raw = env[name];
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * How the App runs its reviews, from the environment: `GPU_JUSTIFY_REVIEW_WORKERS` workers (0: in
 * the App's own thread, as the Action does), each with `GPU_JUSTIFY_REVIEW_WORKER_MEMORY_MB` of heap.
 */
function reviewRunnerFromEnv(env: Record<string, string | undefined> = process.env): ReviewRunner & { warm?(): void } {
  const workers = envNumber(env, 'GPU_JUSTIFY_REVIEW_WORKERS') ?? defaultWorkers();
  if (workers === 0) return inThisThread;
  const memoryMb = envNumber(env, 'GPU_JUSTIFY_REVIEW_WORKER_MEMORY_MB') || DEFAULT_WORKER_MEMORY_MB;
  return new ReviewPool({ workers, memoryMb });
}

let shared: (ReviewRunner & { warm?(): void }) | undefined;

/** The process's review runner, made from the environment on first use. */
export function sharedReviewRunner(): ReviewRunner & { warm?(): void } {
  shared ??= reviewRunnerFromEnv();
  return shared;
}
