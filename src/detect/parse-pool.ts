import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ParseResult, SetParseResult, SourceFile } from './parser.js';
import type { ParseJob, ParseReply } from './parse-worker.js';

/** Parses detection hands off instead of running them on the caller's thread. */
export interface ParseOffload {
  file(path: string, text: string): Promise<ParseResult>;
  set(parser: string, files: readonly SourceFile[]): Promise<SetParseResult>;
}

/**
 * Below this many characters a parse is quicker than the round trip to a worker, and holds the
 * event loop for a few milliseconds at most.
 */
export const OFFLOAD_MIN_CHARS = 64 * 1024;

interface Pending {
  resolve(result: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * A few worker threads, each with its own copy of the parser registry, that parse large files so
 * the App's event loop stays free for webhooks and `/ping` while a review parses megabytes (the
 * Terraform reader's HCL parser alone takes seconds on a 1 MB file). Workers start on first use
 * and do not keep the process alive; one that dies fails its jobs and is replaced.
 */
export class ParsePool implements ParseOffload {
  readonly #slots: (Slot | undefined)[];
  #next = 0;
  #ids = 0;

  constructor(readonly size = Math.max(1, Math.min(2, availableParallelism() - 1))) {
    this.#slots = new Array<Slot | undefined>(size).fill(undefined);
  }

  file(path: string, text: string): Promise<ParseResult> {
    return this.#run({ op: 'file', path, text }) as Promise<ParseResult>;
  }

  set(parser: string, files: readonly SourceFile[]): Promise<SetParseResult> {
    return this.#run({ op: 'set', parser, files: [...files] }) as Promise<SetParseResult>;
  }

  async close(): Promise<void> {
    const slots = this.#slots.splice(0, this.#slots.length, ...new Array<undefined>(this.size).fill(undefined));
    await Promise.all(slots.flatMap((s) => (s ? [s.worker.terminate()] : [])));
  }

  #run(job: ParseJob): Promise<unknown> {
    const index = this.#next++ % this.size;
    const slot = this.#slots[index] ?? this.#start(index);
    const id = ++this.#ids;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.ref();
      slot.worker.postMessage({ id, job });
    });
  }

  #start(index: number): Slot {
    const source = import.meta.url.endsWith('.ts');
    const url = new URL(source ? './parse-worker.ts' : './parse-worker.js', import.meta.url);
    // From sources (tests, tsx) the worker registers the TypeScript loader first: on Node 20 a
    // worker does not inherit its parent's.
    const worker = source
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, { eval: true })
      : new Worker(url);
    const slot: Slot = { worker, pending: new Map() };
    const fail = (err: Error) => {
      if (this.#slots[index] === slot) this.#slots[index] = undefined;
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
    };
    worker.on('message', (reply: ParseReply) => {
      const pending = slot.pending.get(reply.id);
      if (!pending) return;
      slot.pending.delete(reply.id);
      if (slot.pending.size === 0) worker.unref();
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(new Error(reply.message));
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the parse worker stopped (exit ${code})`)));
    worker.unref();
    this.#slots[index] = slot;
    return slot;
  }
}

let shared: ParsePool | undefined;

/** The process's pool, made on first use. */
export function sharedParsePool(): ParsePool {
  shared ??= new ParsePool();
  return shared;
}
