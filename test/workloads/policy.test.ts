import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { DEFAULT_POLICY } from '../../src/domain/policy.js';
import type { Policy } from '../../src/domain/policy.js';
import { parsePolicy, policyFromObject } from '../../src/workloads/policy.js';

const FILE = '.github/gpu-justify.yml';

describe('parsePolicy', () => {
  it.each(['', '# nothing set yet\n', '---\n'])('an empty file %j is the defaults', (text) => {
    expect(parsePolicy(FILE, text)).toEqual({ policy: DEFAULT_POLICY, diagnostics: [] });
  });

  it('reads every field of docs/policy.md', () => {
    const text = [
      '_extends: .github',
      'mode: enforce',
      'catalog: infra/gpu-workloads.yaml',
      'window: 7d',
      'headroom: 0.3',
      'idleBelow: 0.1',
      'overrides:',
      '  minPermission: admin',
      '  teams: [gpu-platform, sre]',
      '  allowAuthor: true',
      '  catalogOwners: true',
      'prices:',
      '  H100: 4.0',
      '  A100-80GB: 2.5',
      'telemetry: prod-eu',
      'comment: never',
    ].join('\n');
    const expected: Policy = {
      mode: 'enforce',
      catalog: 'infra/gpu-workloads.yaml',
      window: 7 * 1440,
      headroom: 0.3,
      idleBelow: 0.1,
      overrides: { minPermission: 'admin', teams: ['gpu-platform', 'sre'], allowAuthor: true, catalogOwners: true },
      prices: { H100: 4, 'A100-80GB': 2.5 },
      telemetry: 'prod-eu',
      comment: 'never',
    };
    expect(parsePolicy(FILE, text)).toEqual({ policy: expected, diagnostics: [] });
  });

  it('defaults what is left out, field by field', () => {
    const { policy, diagnostics } = parsePolicy(FILE, 'mode: enforce\noverrides:\n  allowAuthor: true\n');
    expect(diagnostics).toEqual([]);
    expect(policy).toEqual({
      ...DEFAULT_POLICY,
      mode: 'enforce',
      overrides: { ...DEFAULT_POLICY.overrides, allowAuthor: true },
    });
  });

  it('a bad mode is an error at its line, and only that field falls back', () => {
    const { policy, diagnostics } = parsePolicy(FILE, 'window: 30d\nmode: strict\nheadroom: 0.5\n');
    expect(diagnostics).toEqual([
      { file: FILE, line: 2, severity: 'error', message: 'mode: must be one of advise, enforce, got "strict"' },
    ]);
    expect(policy).toEqual({ ...DEFAULT_POLICY, window: 30 * 1440, headroom: 0.5 });
  });

  it.each(['always', 'changes', 'never'] as const)('reads comment: %s', (when) => {
    expect(parsePolicy(FILE, `comment: ${when}\n`)).toEqual({ policy: { ...DEFAULT_POLICY, comment: when }, diagnostics: [] });
  });

  it.each(['sometimes', 'true', 'Never', '[never]'])('a bad comment (%s) is an error at its line and falls back to changes', (bad) => {
    const { policy, diagnostics } = parsePolicy(FILE, `mode: enforce\ncomment: ${bad}\n`);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ file: FILE, line: 2, severity: 'error' });
    expect(diagnostics[0]!.message).toMatch(/^comment: /);
    expect(policy).toEqual({ ...DEFAULT_POLICY, mode: 'enforce', comment: 'changes' });
  });

  it.each(['https://prometheus.example.com', 'http://user:secret@prom:9090', 'prom.internal:9090', 'www.example.com'])(
    'refuses a URL as telemetry (%s) without echoing it',
    (url) => {
      const { policy, diagnostics } = parsePolicy(FILE, `mode: enforce\ntelemetry: "${url}"\n`);
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatchObject({ file: FILE, line: 2, severity: 'error' });
      expect(diagnostics[0]!.message).toMatch(/^telemetry: must name a telemetry source .*not a URL/);
      expect(diagnostics[0]!.message).not.toContain(url);
      expect(policy.telemetry).toBe('default');
      expect(policy.mode).toBe('enforce');
    },
  );

  it.each([
    [
      'unknown key',
      'mode: advise\nthreshold: 3\n',
      2,
      'threshold: unknown field; the fields here are _extends, mode, catalog, window, headroom, idleBelow, overrides, prices, telemetry, comment',
    ],
    [
      'unknown nested key',
      'overrides:\n  users: [me]\n',
      2,
      'overrides.users: unknown field; the fields here are minPermission, teams, allowAuthor, catalogOwners',
    ],
    ['misspelt key', 'headrom: 0.3\n', 1, 'headrom: unknown field (did you mean headroom?)'],
    ['misspelt nested key', 'overrides:\n  allowauthor: true\n', 2, 'overrides.allowauthor: unknown field (did you mean allowAuthor?)'],
    ['bad window', 'window: two weeks\n', 1, 'window: must be a duration such as 45m, 2h, 1h30m or 1d, got "two weeks"'],
    ['headroom above 1', 'headroom: 20\n', 1, 'headroom: must be a number from 0 to 1, got 20'],
    [
      'bad permission',
      'overrides:\n  minPermission: triage\n',
      2,
      'overrides.minPermission: must be one of write, maintain, admin, got "triage"',
    ],
    ['teams not a list', 'overrides:\n  teams: sre\n', 2, 'overrides.teams: must be a list, got "sre"'],
    ['negative price', 'prices:\n  H100: -1\n', 2, 'prices.H100: must be a positive number, got -1'],
    ['catalog outside the repo', 'catalog: ../secrets.yaml\n', 1, 'catalog: must be a path relative to the repository root, without ".."'],
    [
      'telemetry not a name',
      'telemetry: "my source"\n',
      1,
      'telemetry: must be a name made of letters, digits, ".", "_" or "-", got "my source"',
    ],
    ['_extends not a string', '_extends: [a]\n', 1, '_extends: must be a string, got a list'],
    ['__proto__ key', '__proto__:\n  mode: enforce\n', 1, '__proto__: "__proto__" is not allowed as a key'],
    ['__proto__ price', 'prices:\n  __proto__: 1\n', 2, 'prices.__proto__: "__proto__" is not allowed as a key'],
  ])('%s: one diagnostic with line and field, defaults kept', (_kind, text, line, message) => {
    const { policy, diagnostics } = parsePolicy(FILE, text);
    expect(diagnostics).toEqual([{ file: FILE, line, severity: 'error', message }]);
    expect(policy).toEqual(DEFAULT_POLICY);
  });

  it('keeps the valid overrides and prices next to a bad one', () => {
    const text = 'overrides:\n  minPermission: owner\n  allowAuthor: true\nprices:\n  H100: 4\n  A100: free\n';
    const { policy, diagnostics } = parsePolicy(FILE, text);
    expect(diagnostics.map((d) => d.line)).toEqual([2, 6]);
    expect(policy.overrides).toEqual({ ...DEFAULT_POLICY.overrides, allowAuthor: true });
    expect(policy.prices).toEqual({ H100: 4 });
  });

  it('malformed YAML: the parser line, defaults', () => {
    const { policy, diagnostics } = parsePolicy(FILE, 'mode: enforce\n\theadroom: 0.1\n');
    expect(diagnostics[0]).toMatchObject({ line: 2, severity: 'error', message: match.stringMatching(/^invalid YAML/) });
    expect(policy).toEqual(DEFAULT_POLICY);
  });

  it('a list is not a policy', () => {
    const { policy, diagnostics } = parsePolicy(FILE, '- mode: enforce\n');
    expect(diagnostics).toEqual([{ file: FILE, line: 1, severity: 'error', message: 'the policy must be a mapping, got a list' }]);
    expect(policy).toEqual(DEFAULT_POLICY);
  });

  it('never hands out the shared defaults', () => {
    const { policy } = parsePolicy(FILE, '');
    policy.overrides.teams.push('x');
    policy.prices.H100 = 1;
    expect(DEFAULT_POLICY.overrides.teams).toEqual([]);
    expect(DEFAULT_POLICY.prices).toEqual({});
  });
});

describe('policyFromObject', () => {
  it('validates an object merged elsewhere, locating lines through the callback', () => {
    const lines: Record<string, number> = { mode: 7, 'overrides.teams': 12 };
    const { policy, diagnostics } = policyFromObject(
      FILE,
      { _extends: 'org/.github', mode: 'enforce', overrides: { teams: 'sre' } },
      (path) => lines[path.join('.')] ?? null,
    );
    expect(diagnostics).toEqual([{ file: FILE, line: 12, severity: 'error', message: 'overrides.teams: must be a list, got "sre"' }]);
    expect(policy.mode).toBe('enforce');
  });

  it.each([null, undefined])('%s is the defaults', (value) => {
    expect(policyFromObject(FILE, value)).toEqual({ policy: DEFAULT_POLICY, diagnostics: [] });
  });

  it('a scalar is an error without a line when none is known', () => {
    expect(policyFromObject(FILE, 'enforce').diagnostics).toEqual([
      { file: FILE, line: null, severity: 'error', message: 'the policy must be a mapping, got "enforce"' },
    ]);
  });
});
