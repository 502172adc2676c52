import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError } from '../domain/index.js';
import type { NamedQuery } from './queries/named-query.js';
import { answerKey } from './source.js';
import type { QueryResult, TelemetrySource } from './source.js';

const querySchema = z.object({
  id: z.string(),
  kind: z.enum(['instant', 'range']),
  promql: z.string(),
  what: z.string(),
  how: z.string(),
  blankAbove: z.number().optional(),
});

const base = {
  query: querySchema,
  source: z.string(),
  at: z.string(),
  windowMinutes: z.number(),
};

const resultSchema = z.discriminatedUnion('status', [
  z.object({
    ...base,
    status: z.literal('ok'),
    resultType: z.enum(['vector', 'matrix', 'scalar']),
    series: z.array(
      z.object({
        labels: z.record(z.string(), z.string()),
        samples: z.array(z.object({ t: z.number(), v: z.number() })),
      }),
    ),
    skipped: z.object({ nan: z.number(), inf: z.number(), blank: z.number() }),
    droppedSeries: z.number().optional(),
    warnings: z.array(z.string()),
    step: z.number().optional(),
  }),
  z.object({
    ...base,
    status: z.literal('missing'),
    reason: z.enum(['unavailable', 'bad-query', 'bad-response', 'config', 'no-data', 'not-finite', 'not-in-snapshot']),
    message: z.string(),
  }),
]);

/** Recorded answers of other sources (OpenCost, …), keyed by the caller; values are that source's JSON. */
const extraSchema = z.record(z.string(), z.unknown());

const snapshotSchema = z.object({
  format: z.literal('gpu-justify-snapshot'),
  version: z.literal(1),
  recordedAt: z.string(),
  /** The sources that answered, credentials removed. */
  sources: z.array(z.string()),
  /** Every answer, keyed by `answerKey(query, at, window)`. */
  answers: z.record(z.string(), resultSchema),
  extra: extraSchema.default({}),
});

export type Snapshot = z.infer<typeof snapshotSchema>;

export function emptySnapshot(recordedAt = new Date()): Snapshot {
  return { format: 'gpu-justify-snapshot', version: 1, recordedAt: recordedAt.toISOString(), sources: [], answers: {}, extra: {} };
}

/** Replays a snapshot with no network; a question it does not hold is answered "not in snapshot". */
export class SnapshotSource implements TelemetrySource {
  constructor(
    readonly snapshot: Snapshot,
    private readonly label = 'snapshot',
  ) {}

  get description(): string {
    return this.label;
  }

  async query(q: NamedQuery, at: Date, windowMinutes: number): Promise<QueryResult> {
    const recorded = this.snapshot.answers[answerKey(q, at, windowMinutes)];
    if (recorded === undefined) {
      return {
        query: q,
        source: this.label,
        at: at.toISOString(),
        windowMinutes,
        status: 'missing',
        reason: 'not-in-snapshot',
        message: `${this.label} holds no answer for ${q.id} at ${at.toISOString()} over ${windowMinutes} minutes: record it again with \`gpu-justify snapshot\``,
      };
    }
    // The query echoed is the caller's; the numbers and their source are the recording's.
    return { ...recorded, query: q, source: `${recorded.source} (recorded in ${this.label})` };
  }
}

/** Passes queries to a live source and keeps every answer, failures included, for a snapshot. */
export class RecordingSource implements TelemetrySource {
  readonly snapshot: Snapshot;

  constructor(
    private readonly inner: TelemetrySource,
    recordedAt = new Date(),
  ) {
    this.snapshot = emptySnapshot(recordedAt);
    this.snapshot.sources.push(inner.description);
  }

  get description(): string {
    return this.inner.description;
  }

  async query(q: NamedQuery, at: Date, windowMinutes: number): Promise<QueryResult> {
    const result = await this.inner.query(q, at, windowMinutes);
    this.snapshot.answers[answerKey(q, at, windowMinutes)] = result;
    return result;
  }
}

export function parseSnapshot(text: string, file: string): Snapshot {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError(`${file}: not a JSON snapshot`, { file });
  }
  const parsed = snapshotSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    throw new InputError(`${file}: not a gpu-justify snapshot (${path || 'top level'}: ${issue?.message ?? 'invalid'})`, { file });
  }
  return parsed.data;
}

export async function readSnapshot(file: string): Promise<Snapshot> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InputError(`cannot read snapshot ${file}`, { file, cause });
  }
  return parseSnapshot(text, file);
}

export async function writeSnapshot(file: string, snapshot: Snapshot): Promise<void> {
  await writeFile(file, `${JSON.stringify(snapshot, null, 1)}\n`);
}
