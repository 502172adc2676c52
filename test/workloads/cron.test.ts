import { describe, expect, it } from 'vitest';
import { cronDay, zoneOffsetMinutes } from '../../src/workloads/cron.js';

describe('cronDay: a CronJob schedule as a daily pattern', () => {
  it.each([
    ['0 2 * * *', { firings: [120] }],
    ['*/30 1-2 * * *', { firings: [60, 90, 120, 150] }],
    ['15 6,18 * * *', { firings: [375, 1095] }],
    ['@daily', { firings: [0] }],
    ['@hourly', { firings: Array.from({ length: 24 }, (_, h) => h * 60) }],
    ['0 0 * * 1-5', { firings: [0], days: ['mon', 'tue', 'wed', 'thu', 'fri'] }],
    ['0 0 * * sat,sun', { firings: [0], days: ['sat', 'sun'] }],
    ['0 0 * * 5-7', { firings: [0], days: ['fri', 'sat', 'sun'] }],
    ['0 0 * * 0-6', { firings: [0] }],
  ])('%s', (schedule, expected) => {
    expect(cronDay(schedule)).toEqual(expected);
  });

  it.each(['0 0 1 * *', '0 0 * 1 *', '@monthly', '0 25 * * *', '61 0 * * *', 'CRON_TZ=UTC 0 0 * * *', 'H 0 * * *', ''])(
    '%s is not read as a daily pattern',
    (schedule) => {
      expect(cronDay(schedule)).toBeNull();
    },
  );
});

describe('zoneOffsetMinutes', () => {
  it('follows daylight saving, and knows no made-up zone', () => {
    expect(zoneOffsetMinutes('Europe/Paris', new Date('2026-12-01T12:00:00Z'))).toBe(60);
    expect(zoneOffsetMinutes('Europe/Paris', new Date('2026-07-01T12:00:00Z'))).toBe(120);
    expect(zoneOffsetMinutes('America/New_York', new Date('2026-12-01T12:00:00Z'))).toBe(-300);
    expect(zoneOffsetMinutes('Asia/Kolkata', new Date('2026-12-01T12:00:00Z'))).toBe(330);
    expect(zoneOffsetMinutes('Mars/Olympus', new Date())).toBeNull();
  });
});
