import type { Weekday } from '../domain/index.js';
import { WEEKDAYS } from '../domain/index.js';

/** What a CronJob's schedule says about a day: when it fires, and on which weekdays. */
export interface CronDay {
  /** Minutes after 00:00 in the schedule's time zone, ascending. */
  firings: number[];
  /** Weekdays it fires on; absent: every day. */
  days?: Weekday[];
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const DOW_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The values a cron field allows, or null when it is not a field this reader knows. */
function field(text: string, min: number, max: number, names: readonly string[] = []): number[] | null {
  const out = new Set<number>();
  for (const part of text.toLowerCase().split(',')) {
    const m = /^(\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d+))?$/.exec(part);
    if (!m?.[1]) return null;
    const value = (s: string): number | null => {
      const named = names.indexOf(s);
      if (named >= 0) return named + min;
      return /^\d+$/.test(s) ? Number(s) : null;
    };
    let lo = min;
    let hi = max;
    if (m[1] !== '*') {
      const [a, b] = m[1].split('-');
      const from = value(a ?? '');
      const to = b === undefined ? (m[2] === undefined ? from : max) : value(b);
      if (from === null || to === null) return null;
      lo = from;
      hi = to;
    }
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1 || lo < min || hi > max || lo > hi) return null;
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Reads a standard five-field schedule (and the `@daily` family) as a daily pattern. Schedules
 * tied to days of the month or to months are not daily, so they are left unread (null), as are
 * forms this reader does not know: the draft then asks the team instead of guessing.
 */
export function cronDay(schedule: string): CronDay | null {
  const text = MACROS[schedule.trim().toLowerCase()] ?? schedule.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5) return null;
  const [min, hour, dom, month, dow] = parts as [string, string, string, string, string];
  if (dom !== '*' || month !== '*') return null;
  const minutes = field(min, 0, 59);
  const hours = field(hour, 0, 23);
  // Sunday is 0 or 7.
  const weekdays = dow === '*' ? null : (field(dow, 0, 7, DOW_NAMES)?.map((d) => d % 7) ?? null);
  if (!minutes || !hours || (dow !== '*' && !weekdays)) return null;
  const firings = hours.flatMap((h) => minutes.map((m) => h * 60 + m));
  if (!weekdays || weekdays.length === 7) return { firings };
  return { firings, days: WEEKDAYS.filter((_, i) => weekdays.includes((i + 1) % 7)) };
}

/**
 * The offset of `timeZone` from UTC at `at`, in minutes (Europe/Paris in winter: +60), or null for
 * a zone this Node does not know. Offsets change with daylight saving: the draft says for when.
 */
export function zoneOffsetMinutes(timeZone: string, at: Date): number | null {
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    }).formatToParts(at);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
    return Math.round((local - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
  } catch {
    return null;
  }
}
