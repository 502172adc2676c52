import { DAY } from '../analysis/index.js';
import { WEEKDAYS, type Weekday } from '../domain/index.js';
import { formatClockDown } from '../util/clock.js';

// Times of the planner's cycle as readers (and cron) write them.

/** `x` modulo `m`, always in [0, m). */
const wrap = (x: number, m: number): number => ((x % m) + m) % m;

/** The weekday of a minute of a weekly cycle (minute 0 is Monday 00:00). */
export function weekdayOf(minute: number, cycle: number): Weekday {
  return WEEKDAYS[Math.floor(wrap(Math.floor(minute), cycle) / DAY) % 7] ?? 'mon';
}

/** A moment of the cycle as a reader wants it: `02:30` on a daily cycle, `Sat 02:30` on a weekly one. */
export function formatWhen(minute: number, cycle: number = DAY): string {
  if (cycle === DAY) return formatClockDown(minute);
  const day = weekdayOf(minute, cycle);
  return `${day.charAt(0).toUpperCase()}${day.slice(1)} ${formatClockDown(minute)}`;
}

/**
 * A cron schedule starting at the given minute: daily on a daily cycle (`30 2 * * *`), on that
 * weekday on a weekly one (`30 2 * * 6` for Saturday; cron counts Sunday as 0). Times are UTC,
 * like the catalog's windows: a CronJob using it should set `timeZone: Etc/UTC`.
 */
export function cronLine(startMinute: number, cycle: number = DAY): string {
  const m = wrap(Math.floor(startMinute), DAY);
  const dow = cycle === DAY ? '*' : String((WEEKDAYS.indexOf(weekdayOf(startMinute, cycle)) + 1) % 7);
  return `${m % 60} ${Math.floor(m / 60)} * * ${dow}`;
}
