import { describe, expect, it } from 'vitest';
import { DEFAULT_WRITE_BUDGET_SECONDS, rateLimitWait, writeBudgetSeconds } from '../../src/github/publish/write-budget.js';

const refusal = (status: number, headers: Record<string, string>, message = 'refused') => ({ status, message, response: { headers } });

describe('rateLimitWait', () => {
  const now = 1_800_000_000_000;

  it('takes retry-after, in seconds', () => {
    expect(rateLimitWait(refusal(429, { 'retry-after': '7' }), now)).toBe(7000);
    expect(rateLimitWait(refusal(403, { 'retry-after': '0' }), now)).toBe(0);
  });

  it('waits a spent primary limit out until a second past its reset', () => {
    const reset = String(now / 1000 + 30);
    expect(rateLimitWait(refusal(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), now)).toBe(31_000);
  });

  it('gives a secondary limit without retry-after the minute GitHub asks for', () => {
    expect(rateLimitWait(refusal(403, {}, 'You have exceeded a secondary rate limit'), now)).toBe(60_000);
    expect(rateLimitWait(refusal(429, {}), now)).toBe(60_000);
  });

  it('is no rate limit for a plain 403, a 404 or a 5xx', () => {
    expect(rateLimitWait(refusal(403, { 'x-ratelimit-remaining': '12' }, 'Resource not accessible by integration'), now)).toBeNull();
    expect(rateLimitWait(refusal(404, { 'retry-after': '5' }), now)).toBeNull();
    expect(rateLimitWait(refusal(502, {}), now)).toBeNull();
    expect(rateLimitWait(new Error('boom'), now)).toBeNull();
  });
});

describe('writeBudgetSeconds', () => {
  it('reads the operator’s setting, else the default', () => {
    expect(writeBudgetSeconds({ GPU_JUSTIFY_WRITE_BUDGET_SECONDS: '30' })).toBe(30);
    expect(writeBudgetSeconds({})).toBe(DEFAULT_WRITE_BUDGET_SECONDS);
    expect(writeBudgetSeconds({ GPU_JUSTIFY_WRITE_BUDGET_SECONDS: 'soon' })).toBe(DEFAULT_WRITE_BUDGET_SECONDS);
    expect(writeBudgetSeconds({ GPU_JUSTIFY_WRITE_BUDGET_SECONDS: '-1' })).toBe(DEFAULT_WRITE_BUDGET_SECONDS);
  });
});
