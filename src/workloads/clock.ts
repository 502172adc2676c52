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

/** 1080 → `18:00`; wraps around the day, so 1500 → `01:00`. */
export function formatClock(minutes: number): string {
  const m = ((Math.round(minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}
