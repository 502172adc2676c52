import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_REASON, parseCommand } from '../../src/github/overrides/command-parser.js';

describe('parseCommand', () => {
  it.each([
    ['/gpu-justify', { kind: 'rerun' }],
    ['/GPU-Justify  ', { kind: 'rerun' }],
    ['  /gpu-justify\nplease look again', { kind: 'rerun' }],
    ['/gpu-justify explain', { kind: 'explain' }],
    ['/gpu-justify EXPLAIN\r\nthanks', { kind: 'explain' }],
    ['/gpu-justify help', { kind: 'help' }],
    ['\uFEFF/gpu-justify help', { kind: 'help' }],
    ['/gpu-justify override launch freeze needs the headroom', { kind: 'override', reason: 'launch freeze needs the headroom' }],
    ['/gpu-justify Override\t  two   spaces  ', { kind: 'override', reason: 'two spaces' }],
    // Addressed to one named instance: only it answers (docs/check-run.md).
    ['/gpu-justify@staging', { kind: 'rerun', to: 'staging' }],
    ['/gpu-justify@Prod explain', { kind: 'explain', to: 'prod' }],
    ['/gpu-justify@staging override hot fix', { kind: 'override', reason: 'hot fix', to: 'staging' }],
    ['/gpu-justify@staging approve', { kind: 'invalid', given: 'approve', problem: 'unknown command', to: 'staging' }],
    ['/gpu-justify@ help', { kind: 'invalid', given: '@ help', problem: 'name the instance after `@`' }],
  ])('%j is %j', (body, expected) => {
    expect(parseCommand(body)).toEqual(expected);
  });

  it.each([
    ['/gpu-justify override', '`override` needs a reason'],
    ['/gpu-justify override    ', '`override` needs a reason'],
    ['/gpu-justify explain everything', '`explain` takes no arguments'],
    ['/gpu-justify approve', 'unknown command'],
  ])('%j is refused: %s', (body, problem) => {
    expect(parseCommand(body)).toMatchObject({ kind: 'invalid', problem });
  });

  it.each([
    ['quoted in a reply', '> /gpu-justify override because'],
    ['quoted without a space', '>/gpu-justify'],
    ['in a fenced code block', '```\n/gpu-justify override because\n```'],
    ['in a tilde fence', '~~~\n/gpu-justify\n~~~'],
    ['in an indented code block', '    /gpu-justify override because'],
    ['in inline code', '`/gpu-justify override because`'],
    ['not on the first line', 'Thanks!\n/gpu-justify override because'],
    ['a longer word', '/gpu-justifyx'],
    ['in the middle of a sentence', 'please run /gpu-justify'],
    ['empty', ''],
  ])('ignores a command %s', (_what, body) => {
    expect(parseCommand(body)).toBeNull();
  });

  it('keeps a reason printable, on one line and bounded', () => {
    const parsed = parseCommand(`/gpu-justify override ${'a\u0007b '.repeat(400)}`);
    expect(parsed?.kind).toBe('override');
    const reason = parsed?.kind === 'override' ? parsed.reason : '';
    expect(reason.length).toBeLessThanOrEqual(MAX_REASON);
    // eslint-disable-next-line no-control-regex -- control characters are what the reason must not hold.
    expect(reason).not.toMatch(/[\u0000-\u001F]/);
  });

  it('never throws, and only ever recognises the first line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), fc.string(), (first, rest) => {
        const body = `${first.replace(/[\r\n]/g, '')}\n${rest}`;
        const parsed = parseCommand(body);
        if (parsed !== null) expect(first.trim().toLowerCase().startsWith('/gpu-justify')).toBe(true);
        expect(parseCommand(`${first.replace(/[\r\n]/g, '')}`)).toEqual(parsed);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (body) => {
        const parsed = parseCommand(body);
        if (parsed?.kind === 'override') {
          expect(parsed.reason.length).toBeGreaterThan(0);
          expect(parsed.reason.length).toBeLessThanOrEqual(MAX_REASON);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('any reason after `override` round-trips, trimmed and with whitespace collapsed', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 200 }).filter((s) => /\S/.test(s) && !/[\r\n]/.test(s)),
        (reason) => {
          const parsed = parseCommand(`/gpu-justify override ${reason}`);
          expect(parsed).toEqual({
            kind: 'override',
            reason: reason
              // eslint-disable-next-line no-control-regex -- the cleaning the parser must match.
              .replace(/[\u0000-\u001F\u007F]+/g, ' ')
              .replace(/\s+/g, ' ')
              .trim(),
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
