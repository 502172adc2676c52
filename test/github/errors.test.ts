import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/github/api/errors.js';
import { TelemetryUnavailableError } from '../../src/telemetry/errors.js';

describe('describeFailure', () => {
  it('names the status and request of a GitHub refusal, without host or query', () => {
    const err = Object.assign(new Error('Server Error'), {
      status: 502,
      request: {
        method: 'GET',
        url: 'https://api.github.com/repos/o/r/contents/a%2Fb.yaml?ref=abc',
        headers: { authorization: 'token ghs_secret' },
      },
    });
    expect(describeFailure(err)).toBe('GitHub API refused: 502 on GET /repos/o/r/contents/a/b.yaml');
  });

  it("uses a typed error's kind", () => {
    const err = new TelemetryUnavailableError('Prometheus answered 503', { source: 'prometheus', query: 'up' });
    expect(describeFailure(err)).toBe('telemetry-unavailable: Prometheus answered 503');
  });

  it('labels anything else as unexpected and redacts what looks like a token', () => {
    expect(describeFailure(new TypeError('bad ghs_abc123 and Bearer xyz.987'))).toBe('unexpected TypeError: bad [redacted] and [redacted]');
    expect(describeFailure('string thrown')).toBe('unexpected failure');
  });
});
