import { z } from 'zod';
import { withCircuitBreaker } from './circuit-breaker.js';
import { gatherEvidence } from './gather.js';
import type { GatherRequest } from './gather.js';
import { fetchAllocation } from './opencost/client.js';
import type { Aggregate, AllocationResult } from './opencost/client.js';
import type { HttpSettings } from './prometheus/http.js';
import { RecordingSource } from './snapshot.js';
import type { Snapshot } from './snapshot.js';
import type { TelemetrySource } from './source.js';

export interface RecordOptions extends GatherRequest {
  /** The live source to record (a PrometheusSource, from `openSource`). */
  source: TelemetrySource;
  /** OpenCost, when configured: allocations are recorded too. */
  opencost?: HttpSettings;
  aggregate?: Aggregate;
}

const n = z.number().nullable();
const recordedAllocation = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ok'),
    source: z.string(),
    allocations: z.array(z.object({ key: z.string(), gpuHours: n, gpuCost: n, totalCost: n, minutes: n })),
  }),
  z.object({
    status: z.literal('missing'),
    source: z.string(),
    reason: z.enum(['unavailable', 'bad-query', 'bad-response', 'config', 'no-data', 'not-finite', 'not-in-snapshot']),
    message: z.string(),
  }),
]);

/** The snapshot `extra` key of an OpenCost allocation answer. */
function allocationKey(at: Date, windowMinutes: number, aggregate: Aggregate): string {
  return `opencost|${at.toISOString()}|${windowMinutes}m|${aggregate}`;
}

/** Runs everything a review would ask and keeps every answer, failures included, in one snapshot. */
export async function recordSnapshot(options: RecordOptions): Promise<Snapshot> {
  // The breaker sits inside the recorder, so the queries it fails at once are recorded as such
  // and a replay says the same as the live review would have.
  const recorder = new RecordingSource(withCircuitBreaker(options.source));
  await gatherEvidence(recorder, options);
  if (options.opencost !== undefined) {
    const aggregate = options.aggregate ?? 'namespace';
    const result = await fetchAllocation(options.opencost, { at: options.at, windowMinutes: options.windowMinutes, aggregate });
    recorder.snapshot.sources.push(result.source);
    recorder.snapshot.extra[allocationKey(options.at, options.windowMinutes, aggregate)] = {
      ...result,
      query: { ...result.query, at: options.at.toISOString() },
    };
  }
  return recorder.snapshot;
}

/** The recorded OpenCost answer, or a "not in snapshot" result. */
export function replayAllocation(snapshot: Snapshot, at: Date, windowMinutes: number, aggregate: Aggregate): AllocationResult {
  const query = { at, windowMinutes, aggregate };
  const raw = snapshot.extra[allocationKey(at, windowMinutes, aggregate)];
  if (raw === undefined) {
    return {
      status: 'missing',
      source: 'snapshot',
      query,
      reason: 'not-in-snapshot',
      message: `the snapshot holds no OpenCost allocation by ${aggregate} for ${windowMinutes} minutes to ${at.toISOString()}`,
    };
  }
  const parsed = recordedAllocation.safeParse(raw);
  if (!parsed.success) {
    return {
      status: 'missing',
      source: 'snapshot',
      query,
      reason: 'bad-response',
      message: `the snapshot's OpenCost allocation by ${aggregate} is malformed`,
    };
  }
  return { ...parsed.data, query };
}
