import {
  fetchAllocation,
  openCostSettings,
  openSource,
  parseSnapshot,
  readSnapshot,
  replayAllocation,
  REVIEW_STEP_SECONDS,
  type Snapshot,
  SnapshotSource,
  type TelemetryInput,
} from '../telemetry/index.js';
import { parseDuration } from '../workloads/index.js';
import { UsageError } from './args.js';

export interface TelemetryFlags {
  snapshot?: string | undefined;
  prometheus?: string | undefined;
  opencost?: string | undefined;
  at?: string | undefined;
  window?: string | undefined;
}

export function parseAt(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new UsageError(`--at must be an ISO-8601 time, got ${value}`);
  return at;
}

export function parseWindow(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const minutes = parseDuration(value);
  if (minutes === null || minutes <= 0) throw new UsageError(`--window must be a duration such as 14d or 36h, got ${value}`);
  return minutes;
}

/** The time and look-back most of a snapshot's answers were recorded for. */
function recordedFor(snapshot: Snapshot): { at: Date; windowMinutes: number } | null {
  const counts = new Map<string, number>();
  for (const a of Object.values(snapshot.answers)) {
    const key = `${a.at}|${a.windowMinutes}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (top === undefined) return null;
  const [at, window] = top[0].split('|');
  return { at: new Date(at ?? ''), windowMinutes: Number(window) };
}

/**
 * The review's telemetry from `--snapshot` (replayed, no network) or `--prometheus` (live, with
 * the operator's credentials from the environment); undefined when neither is given. `readInput`
 * gives the snapshot's text where a review must not take it from disk as it stands (a snapshot
 * inside the checkout under review is read from the base side: `checkout-inputs.ts`), null elsewhere.
 */
export async function telemetryFromFlags(
  flags: TelemetryFlags,
  readInput?: (flag: string, file: string) => Promise<string | null>,
): Promise<TelemetryInput | undefined> {
  if (flags.snapshot !== undefined && flags.prometheus !== undefined) {
    throw new UsageError('give --snapshot or --prometheus, not both');
  }
  const at = parseAt(flags.at);
  const windowMinutes = parseWindow(flags.window);
  if (flags.snapshot !== undefined) {
    if (flags.opencost !== undefined) throw new UsageError('--opencost reads live; a snapshot replays what it recorded');
    const text = readInput ? await readInput('--snapshot', flags.snapshot) : null;
    const snapshot = text === null ? await readSnapshot(flags.snapshot) : parseSnapshot(text, flags.snapshot);
    const recorded = recordedFor(snapshot);
    const when = at ?? recorded?.at ?? new Date();
    const window = windowMinutes ?? recorded?.windowMinutes;
    return {
      source: new SnapshotSource(snapshot, `snapshot ${flags.snapshot}`),
      at: when,
      ...(window === undefined ? {} : { windowMinutes: window }),
      allocation: (q) => Promise.resolve(replayAllocation(snapshot, q.at, q.windowMinutes, q.aggregate)),
    };
  }
  if (flags.prometheus !== undefined || flags.opencost !== undefined) {
    if (flags.prometheus === undefined) throw new UsageError('--opencost needs --prometheus');
    const source = await openSource({ kind: 'prometheus', url: flags.prometheus, minStepSeconds: REVIEW_STEP_SECONDS });
    const opencost = flags.opencost === undefined ? undefined : openCostSettings(flags.opencost);
    return {
      source,
      at: at ?? new Date(),
      ...(windowMinutes === undefined ? {} : { windowMinutes }),
      ...(opencost === undefined ? {} : { allocation: (q) => fetchAllocation(opencost, q) }),
    };
  }
  if (at !== undefined || windowMinutes !== undefined) throw new UsageError('--at and --window need --snapshot or --prometheus');
  return undefined;
}
