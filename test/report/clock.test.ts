import { describe, expect, it } from 'vitest';
import { cronLine, formatWhen } from '../../src/report/clock.js';
import { formatClockDown } from '../../src/util/clock.js';

describe('cron', () => {
  it.each([
    [0, '00:00', '0 0 * * *'],
    [150, '02:30', '30 2 * * *'],
    [1439, '23:59', '59 23 * * *'],
    [1440, '00:00', '0 0 * * *'],
    [1530, '01:30', '30 1 * * *'],
  ])('minute %i is %s, cron %s', (minute, clock, cron) => {
    expect(formatClockDown(minute)).toBe(clock);
    expect(cronLine(minute)).toBe(cron);
  });

  const WEEK = 7 * 1440;
  it.each([
    [0, 'Mon 00:00', '0 0 * * 1'],
    [5 * 1440 + 150, 'Sat 02:30', '30 2 * * 6'],
    [6 * 1440 + 1439, 'Sun 23:59', '59 23 * * 0'],
    // Past the week's end: the next Monday, as the repeating week has it.
    [WEEK + 90, 'Mon 01:30', '30 1 * * 1'],
  ])('minute %i of a weekly cycle is %s, cron %s', (minute, when, cron) => {
    expect(formatWhen(minute, WEEK)).toBe(when);
    expect(cronLine(minute, WEEK)).toBe(cron);
  });

  it('writes a daily cycle as before', () => {
    expect(formatWhen(1530)).toBe('01:30');
    expect(formatWhen(1530, 1440)).toBe('01:30');
  });
});
