import { z } from 'zod';
import { CLOCK_PATTERN, DEADLINE_PATTERN, parseClock, parseDeadline } from './clock.js';
import { DURATION_PATTERN, parseDuration } from './duration.js';
import { WEEKDAYS } from '../domain/workload.js';

/** Field builders shared by the catalog and policy schemas, each with a message a user can act on. */

const POSITIVE_INT = 'must be a positive whole number';
const FRACTION = 'must be a number from 0 to 1';
const DURATION = 'must be a duration such as 45m, 2h, 1h30m or 1d';
const CLOCK = 'must be a time of day "HH:MM" (UTC)';
const DEADLINE = 'must be a time of day "HH:MM" (UTC), optionally followed by +1d … +7d for a later day';

export function positiveInt(max?: number) {
  const schema = z.int({ error: POSITIVE_INT }).min(1, { error: POSITIVE_INT });
  return max === undefined ? schema : schema.max(max, { error: `must be at most ${max}` });
}

export function positiveNumber() {
  const message = 'must be a positive number';
  return z.number({ error: message }).positive({ error: message });
}

export function fraction() {
  return z.number({ error: FRACTION }).min(0, { error: FRACTION }).max(1, { error: FRACTION });
}

export function nonEmptyString() {
  return z.string().trim().min(1);
}

/**
 * The word a draft catalog (`gpu-justify init`) writes for what only the team can know: valid, so
 * the file parses, but the entry stays out of the need until someone writes the real value.
 */
export const UNKNOWN = 'unknown';
export type Unknown = typeof UNKNOWN;

/** `pattern`, or the word `unknown` when the field allows it. */
function withUnknown(pattern: string, allowUnknown: boolean): RegExp {
  return new RegExp(allowUnknown ? `^${UNKNOWN}$|${pattern}` : pattern);
}

/** A duration string converted to minutes; the JSON Schema keeps the pattern. */
export function duration(): z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>;
export function duration(options: { allowUnknown: true }): z.ZodPipe<z.ZodString, z.ZodTransform<number | Unknown, string>>;
export function duration(options: { allowUnknown?: boolean } = {}) {
  const allow = options.allowUnknown === true;
  return z
    .string({ error: DURATION })
    .regex(withUnknown(DURATION_PATTERN, allow), { error: DURATION })
    .transform((text, ctx) => {
      if (allow && text === UNKNOWN) return UNKNOWN;
      const minutes = parseDuration(text);
      if (minutes === null || minutes <= 0) {
        ctx.addIssue({ code: 'custom', message: `must be a positive duration, got "${text}"` });
        return z.NEVER;
      }
      return minutes;
    });
}

/** `HH:MM` converted to minutes after 00:00 UTC, within one day (`24:00` is the next 00:00). */
export function clock(): z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>;
export function clock(options: { allowUnknown: true }): z.ZodPipe<z.ZodString, z.ZodTransform<number | Unknown, string>>;
export function clock(options: { allowUnknown?: boolean } = {}) {
  const allow = options.allowUnknown === true;
  return z
    .string({ error: CLOCK })
    .regex(withUnknown(CLOCK_PATTERN, allow), { error: CLOCK })
    .transform((text) => (allow && text === UNKNOWN ? UNKNOWN : (parseClock(text) ?? 0) % 1440));
}

const WEEKDAY = `must be a weekday: ${WEEKDAYS.join(', ')}`;

/** Weekdays a job runs on (`[mon, tue, wed, thu, fri]`), each once, in week order after parsing. */
export function weekdays() {
  return z
    .array(z.enum(WEEKDAYS, { error: WEEKDAY }), { error: `must be a list of weekdays, e.g. [mon, wed, fri]` })
    .min(1, { error: 'must name at least one weekday' })
    .refine((days) => new Set(days).size === days.length, { error: 'names a weekday twice' })
    .transform((days) => WEEKDAYS.filter((d) => days.includes(d)));
}

/**
 * A window's deadline in minutes after 00:00 of the day the window opens: `HH:MM`, or
 * `HH:MM +Nd` for N days later.
 */
export function deadline(): z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>;
export function deadline(options: { allowUnknown: true }): z.ZodPipe<z.ZodString, z.ZodTransform<number | Unknown, string>>;
export function deadline(options: { allowUnknown?: boolean } = {}) {
  const allow = options.allowUnknown === true;
  return z
    .string({ error: DEADLINE })
    .regex(withUnknown(DEADLINE_PATTERN, allow), { error: DEADLINE })
    .transform((text) => (allow && text.trim() === UNKNOWN ? UNKNOWN : (parseDeadline(text) ?? 0)));
}

/**
 * Prometheus label names. `__`-prefixed names are Prometheus-internal, and refusing them also
 * keeps `__proto__` out of the objects built from the file.
 */
export function labelMap() {
  const key = z.string().regex(/^(?!__)[A-Za-z_][A-Za-z0-9_]*$/, {
    error:
      'is not a Prometheus label name (letters, digits, "_"; a Kubernetes label app.kubernetes.io/name appears as label_app_kubernetes_io_name)',
  });
  return z.record(key, z.string({ error: 'label values must be strings (quote numbers)' }));
}

/** A path inside the repository: relative, with no `..`, so it cannot name files outside it. */
export function repoPath() {
  return nonEmptyString().refine((p) => !/^([A-Za-z]:)?[\\/]/.test(p) && !p.split(/[\\/]/).includes('..'), {
    error: 'must be a path relative to the repository root, without ".."',
  });
}
