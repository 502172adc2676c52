import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { GpuJustifyError } from '../domain/errors.js';
import { UnreadablePathError, type ChangeSet, type TreeReader } from '../domain/files.js';
import { fail, ok } from '../domain/result.js';
import { runReview, type ReviewInput } from '../review/index.js';
import type { TelemetryInput } from '../telemetry/index.js';
import type { ErrorShape, FromWorker, PortCall, ReviewJob, Side, ToWorker } from './review-messages.js';

/**
 * A review worker: runs one review at a time, all of it (detection, the catalog and manifests,
 * analysis), as `runReview` would in the App's thread. Its ports are the App thread's: every read
 * of the pull request and every telemetry query is a message there and back (review-messages.ts).
 */

/**
 * An error a port threw in the App's thread, known there by `ref`: it carries that error's name and
 * message here, and the App's thread answers with the error itself.
 */
class PortError extends GpuJustifyError {
  override readonly kind = 'review-port';

  constructor(
    readonly ref: number,
    name: string,
    message: string,
  ) {
    super(message);
    this.name = name;
  }
}

/** The App thread's number for each error a port threw, for errors rebuilt as their own class. */
const refs = new WeakMap<Error, number>();

/**
 * The port's error as the review knows it: a path there but no file (a submodule, a link leading
 * out, a file over the size limit) is an UnreadablePathError again, which detection reports on the
 * file, as it does in the App's thread; anything else a PortError.
 */
function portError(shape: ErrorShape): Error {
  const ref = shape.ref ?? 0;
  if (!shape.unreadable) return new PortError(ref, shape.name, shape.message);
  const err = new UnreadablePathError(shape.unreadable.path, shape.unreadable.why);
  refs.set(err, ref);
  return err;
}

const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
let calls = 0;

function post(message: FromWorker): void {
  parentPort?.postMessage(message);
}

function call<T>(request: PortCall): Promise<T> {
  const id = ++calls;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    post({ kind: 'call', call: id, request });
  });
}

function side(job: ReviewJob, which: Side): TreeReader {
  const shape = job.changes[which];
  const reader: TreeReader = { label: shape.label, read: (path) => call({ op: 'read', side: which, path }) };
  if (shape.list) reader.list = (dir) => call({ op: 'list', side: which, dir });
  if (shape.dirs) reader.dirs = (dir) => call({ op: 'dirs', side: which, dir });
  if (shape.notAFile) reader.notAFile = (path) => call({ op: 'notAFile', side: which, path });
  if (shape.contentId) reader.contentId = (path) => call({ op: 'contentId', side: which, path });
  return reader;
}

function telemetryOf(job: ReviewJob): TelemetryInput | undefined {
  const t = job.telemetry;
  if (!t) return undefined;
  return {
    source: { description: t.description, query: (query, at, windowMinutes) => call({ op: 'query', query, at, windowMinutes }) },
    at: t.at,
    ...(t.windowMinutes === undefined ? {} : { windowMinutes: t.windowMinutes }),
    ...(t.rateWindowMinutes === undefined ? {} : { rateWindowMinutes: t.rateWindowMinutes }),
    ...(t.allocation ? { allocation: (query) => call({ op: 'allocation', query }) } : {}),
  };
}

function inputOf(job: ReviewJob): ReviewInput {
  const changes: ChangeSet = {
    base: side(job, 'base'),
    head: side(job, 'head'),
    changedPaths: () => call({ op: 'changedPaths' }),
    ...(job.changes.repositories ? { repositories: job.changes.repositories } : {}),
  };
  const telemetry = telemetryOf(job);
  return {
    changes,
    policy: job.policy,
    ...(job.headSha === undefined ? {} : { headSha: job.headSha }),
    ...(job.catalog === undefined ? {} : { catalog: job.catalog }),
    ...(job.baseBranch === undefined ? {} : { baseBranch: job.baseBranch }),
    ...(telemetry === undefined ? {} : { telemetry }),
  };
}

/** The error as it crosses back: a port's own error by its number, anything else by name and message. */
function shapeOf(err: unknown): ErrorShape {
  let at: unknown = err;
  for (let depth = 0; depth < 5 && at instanceof Error; depth++, at = at.cause) {
    if (at instanceof PortError) return { name: at.name, message: at.message, ref: at.ref };
    const ref = refs.get(at);
    if (ref !== undefined) return { name: at.name, message: at.message, ref };
  }
  return err instanceof Error ? { name: err.name, message: err.message } : { name: 'Error', message: String(err) };
}

async function review(job: ReviewJob): Promise<void> {
  try {
    const result = await runReview(inputOf(job));
    post({ kind: 'done', ...ok(result) });
  } catch (err) {
    post({ kind: 'done', ...fail(shapeOf(err)) });
  }
}

/**
 * Linux lets one thread of a process run at a lower priority: a review worker yields the CPU to
 * the App's thread, which answers webhooks and `/ping`. Elsewhere the worker keeps its priority.
 */
function yieldToTheApp(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // No /proc, or not allowed: the worker runs at the process's priority.
  }
}

yieldToTheApp();
parentPort?.on('message', (message: ToWorker) => {
  if (message.kind === 'review') {
    void review(message.job);
    return;
  }
  const waiting = pending.get(message.call);
  if (!waiting) return;
  pending.delete(message.call);
  if (message.ok) waiting.resolve(message.value);
  else waiting.reject(portError(message.error));
});
