import type { FieldOrigin, FillableField } from '../domain/index.js';
import { formatDuration } from '../workloads/index.js';
import { formatClockNearest } from '../util/clock.js';

function from(o: FieldOrigin): string {
  return o.source === 'telemetry' ? `the runs telemetry observed over ${o.window ?? 'the window'}` : o.ref;
}

/**
 * The note that replaces an `unknown` field's warning once a review filled it: the value taken
 * (`minutes` of runtime, or minutes after 00:00 UTC for the earliest start) and where from.
 */
export function filledFieldNote(path: string, field: FillableField, minutes: number, origin: FieldOrigin): string {
  const value = field === 'runtime' ? formatDuration(minutes) : `"${formatClockNearest(minutes)}"`;
  return `${path}: "unknown": taken as ${value} from ${from(origin)}; write it to confirm it`;
}
