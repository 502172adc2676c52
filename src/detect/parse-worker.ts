import { parentPort } from 'node:worker_threads';
import { detectFile } from './detect-file.js';
import type { SourceFile } from './parser.js';
import { PARSERS } from './registry.js';

const FILE_PARSERS = PARSERS.filter((p) => !p.parseSet);

/** One parse asked of a worker: a file through every parser, or a set through one parser. */
export type ParseJob = { op: 'file'; path: string; text: string } | { op: 'set'; parser: string; files: SourceFile[] };

interface ParseRequest {
  id: number;
  job: ParseJob;
}

export type ParseReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string };

/** Runs one job as detection would in the main thread; the registry is this worker's own copy. */
function runJob(job: ParseJob): unknown {
  // As detectChanges reads a file on its own: through the parsers that do not read sets.
  if (job.op === 'file') return detectFile(job.path, job.text, FILE_PARSERS);
  const parser = PARSERS.find((p) => p.id === job.parser);
  if (!parser?.parseSet) throw new Error(`no set parser ${job.parser}`);
  return parser.parseSet(job.files);
}

parentPort?.on('message', (request: ParseRequest) => {
  let reply: ParseReply;
  try {
    reply = { id: request.id, ok: true, result: runJob(request.job) };
  } catch (err) {
    reply = { id: request.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
