import type { DeclaredWorkload, DraftEntry, DraftSchedule } from '../domain/index.js';
import { cronDay, zoneOffsetMinutes } from './cron.js';

const signed = (minutes: number) => {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/**
 * A CronJob's schedule as the catalog states it: runs a day and the first start in UTC. A schedule
 * in a time zone is converted at `at`'s offset (daylight saving moves it, and the draft says so);
 * weekdays that the conversion would move across midnight are left for the team.
 */
function draftSchedule(w: DeclaredWorkload, at: Date): DraftSchedule | null {
  if (!w.schedule) return null;
  const day = cronDay(w.schedule.cron);
  if (!day || day.firings.length === 0) return null;
  const zone = w.schedule.timeZone;
  const offset = zone === null ? 0 : zoneOffsetMinutes(zone, at);
  if (offset === null) return null;
  const utc = day.firings.map((f) => f - offset);
  const crosses = utc.some((f) => f < 0 || f >= 1440);
  if (day.days && crosses) return null;
  const first = Math.min(...utc.map((f) => ((f % 1440) + 1440) % 1440));
  const how =
    zone === null
      ? 'UTC (no timeZone: the controller manager’s zone, UTC on managed clusters)'
      : `in ${zone} (${signed(offset)} on ${at.toISOString().slice(0, 10)}; daylight saving may move it)`;
  return { jobsPerDay: day.firings.length, earliestStartUtc: first, ...(day.days ? { days: day.days } : {}), how };
}

/** One draft entry per declared workload, named uniquely: a name used in two namespaces gets its namespace. */
export function draftEntries(workloads: readonly DeclaredWorkload[], at: Date): DraftEntry[] {
  const count = new Map<string, number>();
  for (const w of workloads) count.set(w.name, (count.get(w.name) ?? 0) + 1);
  const used = new Set<string>();
  return workloads.map((w) => {
    let name = (count.get(w.name) ?? 0) > 1 && w.namespace !== null ? `${w.namespace}-${w.name}` : w.name;
    for (let i = 2; used.has(name); i++) name = `${w.name}-${i}`;
    used.add(name);
    return { workload: w, name, schedule: draftSchedule(w, at) };
  });
}
