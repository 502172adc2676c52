import { describe, expect, it } from 'vitest';
import { formatClockDown, formatClockNearest } from './clock.js';

describe('formatClockNearest and formatClockDown', () => {
  it('agree on whole minutes, wrapping around the day both ways', () => {
    for (const [minute, clock] of [
      [0, '00:00'],
      [1080, '18:00'],
      [1439, '23:59'],
      [1440, '00:00'],
      [1500, '01:00'],
      [-60, '23:00'],
      [10 * 1440 + 61, '01:01'],
    ] as const) {
      expect(formatClockNearest(minute)).toBe(clock);
      expect(formatClockDown(minute)).toBe(clock);
    }
  });

  it('differ only in how a part of a minute rounds', () => {
    expect(formatClockNearest(1530.6)).toBe('01:31');
    expect(formatClockDown(1530.6)).toBe('01:30');
    expect(formatClockNearest(1439.5)).toBe('00:00');
    expect(formatClockDown(1439.5)).toBe('23:59');
    expect(formatClockNearest(-0.4)).toBe('00:00');
    expect(formatClockDown(-0.4)).toBe('23:59');
  });
});
