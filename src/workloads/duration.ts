/**
 * Durations as users write them: `45m`, `2h`, `1h30m`, `1d`, `14d`, `2w`, `90s`.
 * Units appear at most once each, largest first, with whole numbers, as in Prometheus.
 * Everything downstream counts whole minutes, so seconds round up: a 90s job still
 * holds its GPUs for part of a second minute.
 */
export const DURATION_PATTERN = '^(?=.)(?:\\d+w)?(?:\\d+d)?(?:\\d+h)?(?:\\d+m)?(?:\\d+s)?$';

const DURATION_RE = /^(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

const SECONDS = { w: 7 * 86_400, d: 86_400, h: 3_600, m: 60, s: 1 } as const;

/** Minutes, or null when `text` is not a duration. `0m` is a duration (0); callers decide if it is allowed. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const match = DURATION_RE.exec(trimmed);
  if (!match) return null;
  const [, w, d, h, m, s] = match;
  let seconds = 0;
  for (const [part, unit] of [
    [w, SECONDS.w],
    [d, SECONDS.d],
    [h, SECONDS.h],
    [m, SECONDS.m],
    [s, SECONDS.s],
  ] as const) {
    if (part !== undefined) seconds += Number(part) * unit;
  }
  const minutes = Math.ceil(seconds / 60);
  return Number.isSafeInteger(minutes) ? minutes : null;
}

/** 150 → `2h30m`, 1440 → `1d`, 0 → `0m`. Days are the largest unit, matching how windows are written. */
export function formatDuration(minutes: number): string {
  if (!Number.isFinite(minutes)) return String(minutes);
  const rounded = Math.round(minutes);
  if (rounded < 0) return `-${formatDuration(-rounded)}`;
  if (rounded === 0) return '0m';
  const days = Math.floor(rounded / 1440);
  const hours = Math.floor((rounded % 1440) / 60);
  const mins = rounded % 60;
  return (days ? `${days}d` : '') + (hours ? `${hours}h` : '') + (mins ? `${mins}m` : '');
}
