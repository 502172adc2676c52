import { describe, expect, it } from 'vitest';
import { parseClock } from '../../src/workloads/clock.js';
import { formatClockNearest } from '../../src/util/clock.js';
import { formatDuration, parseDuration } from '../../src/workloads/duration.js';

describe('parseDuration', () => {
  it.each([
    ['45m', 45],
    ['2h', 120],
    ['1h30m', 90],
    ['1d', 1440],
    ['14d', 20160],
    ['2w', 20160],
    ['1d2h3m', 1563],
    ['90s', 2],
    ['60s', 1],
    ['1m1s', 2],
    ['0m', 0],
    [' 2h ', 120],
  ])('%j → %i minutes', (text, minutes) => {
    expect(parseDuration(text)).toBe(minutes);
  });

  it.each(['', 'h', '2', '2 h', '1.5h', '30m1h', '2H', '-1h', '2hours', '1h1h', '99999999999999999999d'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe('formatDuration', () => {
  it.each([
    [150, '2h30m'],
    [45, '45m'],
    [120, '2h'],
    [1440, '1d'],
    [20160, '14d'],
    [1501, '1d1h1m'],
    [0, '0m'],
    [-90, '-1h30m'],
  ])('%i → %s', (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
  });

  it.each([45, 90, 150, 1440, 1563, 20160])('round-trips %i', (minutes) => {
    expect(parseDuration(formatDuration(minutes))).toBe(minutes);
  });
});

describe('parseClock', () => {
  it.each([
    ['00:00', 0],
    ['06:00', 360],
    ['18:00', 1080],
    ['9:05', 545],
    ['23:59', 1439],
    ['24:00', 1440],
  ])('%s → %i', (text, minutes) => {
    expect(parseClock(text)).toBe(minutes);
  });

  it.each(['', '24:01', '25:00', '12:60', '1200', '12:5', '12:00:00', 'noon', '-1:00'])('rejects %j', (text) => {
    expect(parseClock(text)).toBeNull();
  });

  it.each([
    [0, '00:00'],
    [545, '09:05'],
    [1440, '00:00'],
    [1500, '01:00'],
  ])('formatClockNearest(%i) → %s', (minutes, text) => {
    expect(formatClockNearest(minutes)).toBe(text);
  });
});
