import { describe, expect, it } from 'vitest';
import { cronLine, formatClock } from '../../../src/analysis/stagger/cron.js';

describe('cron', () => {
  it.each([
    [0, '00:00', '0 0 * * *'],
    [150, '02:30', '30 2 * * *'],
    [1439, '23:59', '59 23 * * *'],
    [1440, '00:00', '0 0 * * *'],
    [1530, '01:30', '30 1 * * *'],
  ])('minute %i is %s, cron %s', (minute, clock, cron) => {
    expect(formatClock(minute)).toBe(clock);
    expect(cronLine(minute)).toBe(cron);
  });
});
