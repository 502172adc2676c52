// A minute of the day as `HH:MM`, written once. Callers hold minutes that are not always whole:
// each says by the function's name how it rounds, so a time is never shown other than it was.

const DAY = 1440;

/** A whole minute as `HH:MM`, wrapping around the day (1500 → `01:00`, -60 → `23:00`). */
function clockText(minute: number): string {
  const m = ((minute % DAY) + DAY) % DAY;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Rounded to the nearest minute: times the catalog writes, which read back as what was meant (1080 → `18:00`). */
export function formatClockNearest(minutes: number): string {
  return clockText(Math.round(minutes));
}

/** Rounded down: the planner's minutes of its cycle, a start never shown later than it is (1530.9 → `01:30`). */
export function formatClockDown(minute: number): string {
  return clockText(Math.floor(minute));
}
