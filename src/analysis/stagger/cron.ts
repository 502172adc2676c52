import { DAY, mod } from './circle.js';

/** Minute of the day as `HH:MM`; minutes past midnight of the next day wrap (1530 → `01:30`). */
export function formatClock(minute: number): string {
  const m = mod(Math.floor(minute), DAY);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/**
 * A daily cron schedule starting at the given minute (`30 2 * * *`). Times are UTC, like the
 * catalog's windows: a CronJob using it should set `timeZone: Etc/UTC`.
 */
export function cronLine(startMinute: number): string {
  const m = mod(Math.floor(startMinute), DAY);
  return `${m % 60} ${Math.floor(m / 60)} * * *`;
}
