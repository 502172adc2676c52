import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeRegex } from '../../src/util/escape-regex.js';
import { PromQLBuildError, eq, labelName, matchersFrom, minutes, ne, oneOf, quote, selector } from '../../src/telemetry/promql.js';

describe('promql builder', () => {
  it('quotes values so that quotes, backslashes and newlines stay inside the string', () => {
    expect(quote('a"b\\c\nd')).toBe('"a\\"b\\\\c\\nd"');
    expect(selector('up', [eq('job', 'x"} or vector(1) or {y="')])).toBe('up{job="x\\"} or vector(1) or {y=\\""}');
  });

  it('round-trips any value through a JSON-compatible string literal', () => {
    // PromQL string literals use Go escapes; for these characters they coincide with JSON's.
    fc.assert(
      fc.property(fc.string(), (s) => {
        const lit = quote(s);
        expect(JSON.parse(lit.replace(/\\x([0-9a-f]{2})/g, '\\u00$1'))).toBe(s);
      }),
    );
  });

  it('builds selectors from label maps in a stable order', () => {
    expect(selector('DCGM_FI_DEV_GPU_UTIL', matchersFrom({ pod: 'p', namespace: 'eval' }))).toBe(
      'DCGM_FI_DEV_GPU_UTIL{namespace="eval",pod="p"}',
    );
    expect(selector('vllm:num_requests_running', [ne('replica_role', 'follower')])).toBe(
      'vllm:num_requests_running{replica_role!="follower"}',
    );
  });

  it('escapes regex metacharacters in literal alternatives', () => {
    expect(escapeRegex('a.b|c(d)')).toBe('a\\.b\\|c\\(d\\)');
    expect(selector('m', [oneOf('pod', ['a.b', 'c|d'])])).toBe('m{pod=~"a\\\\.b|c\\\\|d"}');
  });

  it.each(['na-me', '1abc', 'a b', 'x"}', ''])('refuses the label name %j', (name) => {
    expect(() => labelName(name)).toThrow(PromQLBuildError);
    expect(() => selector('m', [eq(name, 'v')])).toThrow(PromQLBuildError);
  });

  it('refuses bad metric names and durations', () => {
    expect(() => selector('up or vector(1)', [])).toThrow(PromQLBuildError);
    expect(() => minutes(1.5)).toThrow(PromQLBuildError);
    expect(minutes(20160)).toBe('20160m');
  });
});
