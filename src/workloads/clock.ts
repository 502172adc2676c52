import { formatClockNearest } from '../util/clock.js';

/**
 * Times of day as `HH:MM` (UTC). One-digit hours (`9:00`) are accepted because people write
 * them; `24:00` is accepted as the end of the day (1440), which a daily window reads as the
 * next day's 00:00.
 */
export const CLOCK_PATTERN = '^(?:[01]?\\d|2[0-3]):[0-5]\\d$|^24:00$';

const CLOCK_RE = /^(\d{1,2}):(\d{2})$/;

/** Minutes after 00:00, or null when `text` is not a time of day. */
export function parseClock(text: string): number | null {
  const match = CLOCK_RE.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours === 24 && minutes === 0) return 1440;
  if (hours > 23 || minutes > 59) return null;
  return hours * 60 + minutes;
}

/**
 * A window's deadline: a time of day, optionally `+Nd` days after the day the window opens
 * (`06:00 +2d`: 06:00 two days later), N from 1 to 7, for runs longer than a day.
 */
export const DEADLINE_PATTERN = '^\\s*(?:(?:[01]?\\d|2[0-3]):[0-5]\\d|24:00)(?:\\s*\\+[1-7]d)?\\s*$';

const DEADLINE_RE = /^\s*(\d{1,2}:\d{2})\s*(?:\+([1-7])d)?\s*$/;

/**
 * A deadline in minutes after 00:00 of the day the window opens: a plain time of day as
 * parseClock (the window's rule puts one at or before the start on the next day); `+Nd` adds
 * N days. Null when `text` is neither.
 */
export function parseDeadline(text: string): number | null {
  const match = DEADLINE_RE.exec(text);
  const clock = match ? parseClock(match[1] ?? '') : null;
  if (match === null || clock === null) return null;
  return match[2] === undefined ? clock % 1440 : Number(match[2]) * 1440 + clock;
}

/** A deadline as written: `06:00`, or `06:00 +2d` when it lies more than a day after 00:00 of the opening day. */
export function formatDeadline(minutes: number): string {
  const days = Math.floor(minutes / 1440);
  return days >= 1 && minutes !== 1440 ? `${formatClockNearest(minutes)} +${days}d` : formatClockNearest(minutes);
}
