import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import type { Diagnostic } from '../../src/domain/diagnostic.js';
import { MAX_FILE_CHARS } from '../../src/domain/limits.js';
import type { Workload } from '../../src/domain/workload.js';
import { parseCatalog } from '../../src/workloads/catalog.js';

const FILE = 'gpu-workloads.yaml';
const example = readFileSync(new URL('./fixtures/interfaces-example.yaml', import.meta.url), 'utf8');

/** A catalog with one batch workload, in which `extra` lines are added to the item. */
function batch(extra = '', name = 'nightly-eval'): string {
  return [
    `  - name: ${name}`,
    '    type: batch',
    '    gpusPerJob: 2',
    '    runtime: 2h',
    '    window:',
    '      earliestStart: "00:00"',
    '      deadline: "06:00"',
    ...(extra ? [extra] : []),
  ].join('\n');
}

function only(diagnostics: Diagnostic[]): Diagnostic {
  expect(diagnostics).toHaveLength(1);
  return diagnostics[0]!;
}

describe('parseCatalog: an example using the fields of docs/catalog.md', () => {
  it('parses to typed workloads with durations and clocks converted', () => {
    const { workloads, diagnostics } = parseCatalog(FILE, example);
    expect(diagnostics).toEqual([]);
    const expected: Workload[] = [
      {
        name: 'nightly-eval',
        type: 'batch',
        queue: 'research',
        pool: 'a100-pool',
        gpusPerJob: 2,
        runtime: 120,
        jobsPerDay: 4,
        window: { earliestStart: 0, deadline: 360 },
        interruptible: false,
        selector: { namespace: 'eval' },
        outcomes: {
          verified: 'sum(increase(eval_runs_total{namespace="eval",result="pass"}[1d]))',
          total: 'sum(increase(eval_runs_total{namespace="eval"}[1d]))',
          qualityThreshold: 0.95,
        },
        source: { file: FILE, line: 2 },
      },
      {
        name: 'support-chat',
        type: 'inference',
        pool: 'l4-pool',
        model: 'llama-3.1-8b-instruct',
        gpusPerReplica: 1,
        replicas: 4,
        slo: { p95LatencyMs: 2000, ttftP95Ms: 500, errorRate: 0.01 },
        headroom: 0.2,
        selector: { namespace: 'chat' },
        loadTest: 'loadtests/chat-l4.json',
        quality: 0.94,
        qualityThreshold: 0.9,
        alternatives: [
          {
            name: 'chat-3b',
            model: 'llama-3.2-3b-instruct',
            gpusPerReplica: 1,
            quality: 0.91,
            loadTest: 'loadtests/chat-3b-l4.json',
          },
        ],
        source: { file: FILE, line: 20 },
      },
    ];
    expect(workloads).toEqual(expected);
  });

  it('fills the defaults: jobsPerDay 1, not interruptible, no alternatives', () => {
    const text = `workloads:\n${batch()}\n  - name: chat\n    type: inference\n    gpusPerReplica: 1\n    replicas: 2\n`;
    const { workloads, diagnostics } = parseCatalog(FILE, text);
    expect(diagnostics).toEqual([]);
    expect(workloads[0]).toMatchObject({ jobsPerDay: 1, interruptible: false });
    expect(workloads[1]).toMatchObject({ alternatives: [] });
  });

  it('reads unquoted clocks, 24:00 and an overnight window', () => {
    const text = [
      'workloads:',
      '  - name: overnight',
      '    type: training',
      '    gpusPerJob: 8',
      '    runtime: 1h30m',
      '    interruptible: true',
      '    window:',
      '      earliestStart: 18:00',
      '      deadline: 9:00',
      '  - name: all-day',
      '    type: batch',
      '    gpusPerJob: 1',
      '    runtime: 1d',
      '    window: { earliestStart: "00:00", deadline: "24:00" }',
    ].join('\n');
    const { workloads, diagnostics } = parseCatalog(FILE, text);
    expect(diagnostics).toEqual([]);
    expect(workloads.map((w) => w.type !== 'inference' && [w.runtime, w.window])).toEqual([
      [90, { earliestStart: 1080, deadline: 540 }],
      [1440, { earliestStart: 0, deadline: 0 }],
    ]);
  });
});

describe('parseCatalog: errors name file, line and field', () => {
  it.each([
    {
      kind: 'unknown key',
      text: `workloads:\n${batch('    gpus: 2')}`,
      line: 9,
      message:
        'workloads[0].gpus: unknown field; the fields here are name, queue, pool, selector, outcomes, type, gpusPerJob, runtime, jobsPerDay, days, window, interruptible',
    },
    {
      kind: 'misspelt key',
      text: `workloads:\n${batch('    interuptible: true')}`,
      line: 9,
      message: 'workloads[0].interuptible: unknown field (did you mean interruptible?)',
    },
    {
      kind: 'misspelt key inside a field',
      text: `workloads:\n${batch('    outcomes: { verified: "sum(x)", totl: "sum(y)" }')}`,
      line: 9,
      message: 'workloads[0].outcomes.totl: unknown field (did you mean total?)',
    },
    {
      kind: 'wrong type',
      text: `workloads:\n${batch('    interruptible: "yes"')}`,
      line: 9,
      message: 'workloads[0].interruptible: must be true or false, got "yes"',
    },
    {
      kind: 'bad duration',
      text: `workloads:\n${batch().replace('runtime: 2h', 'runtime: 2 hours')}`,
      line: 5,
      message: 'workloads[0].runtime: must be a duration such as 45m, 2h, 1h30m or 1d, got "2 hours"',
    },
    {
      kind: 'duration without a unit',
      text: `workloads:\n${batch().replace('runtime: 2h', 'runtime: 120')}`,
      line: 5,
      message: 'workloads[0].runtime: must be a duration such as 45m, 2h, 1h30m or 1d, got 120',
    },
    {
      kind: 'zero duration',
      text: `workloads:\n${batch().replace('runtime: 2h', 'runtime: 0m')}`,
      line: 5,
      message: 'workloads[0].runtime: must be a positive duration, got "0m"',
    },
    {
      kind: 'bad clock',
      text: `workloads:\n${batch().replace('"06:00"', '"25:00"')}`,
      line: 8,
      message:
        'workloads[0].window.deadline: must be a time of day "HH:MM" (UTC), optionally followed by +1d … +7d for a later day, got "25:00"',
    },
    {
      kind: 'negative GPU count',
      text: `workloads:\n${batch().replace('gpusPerJob: 2', 'gpusPerJob: -2')}`,
      line: 4,
      message: 'workloads[0].gpusPerJob: must be a positive whole number, got -2',
    },
    {
      kind: 'fractional GPU count',
      text: `workloads:\n${batch().replace('gpusPerJob: 2', 'gpusPerJob: 1.5')}`,
      line: 4,
      message: 'workloads[0].gpusPerJob: must be a positive whole number, got 1.5',
    },
    {
      kind: 'zero jobs per day',
      text: `workloads:\n${batch('    jobsPerDay: 0')}`,
      line: 9,
      message: 'workloads[0].jobsPerDay: must be a positive whole number, got 0',
    },
    {
      kind: 'missing required field',
      text: `workloads:\n${batch().replace('    gpusPerJob: 2\n', '')}`,
      line: 2,
      message: 'workloads[0].gpusPerJob: is required',
    },
    {
      kind: 'missing type',
      text: `workloads:\n${batch().replace('    type: batch\n', '')}`,
      line: 2,
      message: 'workloads[0].type: is required (one of batch, training, inference)',
    },
    {
      kind: 'unknown type',
      text: `workloads:\n${batch().replace('type: batch', 'type: cron')}`,
      line: 3,
      message: 'workloads[0].type: must be one of batch, training, inference, got "cron"',
    },
    {
      kind: 'field of another type',
      text: `workloads:\n${batch('    replicas: 2')}`,
      line: 9,
      message:
        'workloads[0].replicas: unknown field; the fields here are name, queue, pool, selector, outcomes, type, gpusPerJob, runtime, jobsPerDay, days, window, interruptible',
    },
    {
      kind: 'fraction out of range',
      text: `workloads:\n${batch('    outcomes:\n      verified: up\n      qualityThreshold: 95')}`,
      line: 11,
      message: 'workloads[0].outcomes.qualityThreshold: must be a number from 0 to 1, got 95',
    },
    {
      kind: 'non-string label value',
      text: `workloads:\n${batch('    selector:\n      gpu: 1')}`,
      line: 10,
      message: 'workloads[0].selector.gpu: label values must be strings (quote numbers), got 1',
    },
    {
      kind: 'runtime longer than window',
      text: `workloads:\n${batch().replace('runtime: 2h', 'runtime: 8h')}`,
      line: 5,
      message: 'workloads[0].runtime: workload "nightly-eval" runs 8h, longer than its window 00:00–06:00 (6h)',
    },
  ])('$kind', ({ text, line, message }) => {
    const { workloads, diagnostics } = parseCatalog(FILE, text);
    expect(only(diagnostics)).toEqual({ file: FILE, line, severity: 'error', message });
    expect(workloads).toEqual([]);
  });

  it('duplicate name: reported at the second one, the first kept', () => {
    const text = `workloads:\n${batch()}\n${batch()}`;
    const { workloads, diagnostics } = parseCatalog(FILE, text);
    expect(only(diagnostics)).toEqual({
      file: FILE,
      line: 9,
      severity: 'error',
      message: 'workloads[1].name: duplicate name "nightly-eval" (first used at line 2)',
    });
    expect(workloads.map((w) => w.source.line)).toEqual([2]);
  });

  it('reads the weekdays a job runs on, in week order', () => {
    const { workloads, diagnostics } = parseCatalog(FILE, `workloads:\n${batch('    days: [sat, mon, wed]')}\n`);
    expect(diagnostics).toEqual([]);
    expect(workloads[0]).toMatchObject({ days: ['mon', 'wed', 'sat'] });
    expect(parseCatalog(FILE, `workloads:\n${batch()}\n`).workloads[0]).not.toHaveProperty('days');
  });

  it.each([
    ['    days: [mon, funday]', 'workloads[0].days[1]', 'must be a weekday: mon, tue, wed, thu, fri, sat, sun'],
    ['    days: [mon, mon]', 'workloads[0].days', 'names a weekday twice'],
    ['    days: []', 'workloads[0].days', 'must name at least one weekday'],
    ['    days: weekends', 'workloads[0].days', 'must be a list of weekdays'],
  ])('names a bad days list at its line: %s', (line, path, message) => {
    const d = only(parseCatalog(FILE, `workloads:\n${batch(line)}\n`).diagnostics);
    expect(d.line).toBe(9);
    expect(d.message).toContain(path);
    expect(d.message).toContain(message);
  });

  it('reads a deadline days after the window opens, for runs longer than a day', () => {
    const text = `workloads:\n${batch('    days: [sat]').replace('runtime: 2h', 'runtime: 1d12h').replace('deadline: "06:00"', 'deadline: "06:00 +2d"')}\n`;
    const { workloads, diagnostics } = parseCatalog(FILE, text);
    expect(diagnostics).toEqual([]);
    expect(workloads[0]).toMatchObject({ runtime: 36 * 60, window: { earliestStart: 0, deadline: 2 * 1440 + 360 } });
  });

  it.each([
    ['"06:00 +8d"', 'must be a time of day "HH:MM" (UTC), optionally followed by +1d … +7d'],
    ['"06:00 +7d"', 'a window can span at most a week'],
    ['"tomorrow"', 'must be a time of day'],
  ])('names a bad deadline %s at its line', (value, message) => {
    const d = only(parseCatalog(FILE, `workloads:\n${batch().replace('deadline: "06:00"', `deadline: ${value}`)}\n`).diagnostics);
    expect(d.line).toBe(8);
    expect(d.message).toContain('workloads[0].window.deadline');
    expect(d.message).toContain(message);
  });

  it('says a run longer than a multi-day window does not fit, writing the deadline as given', () => {
    const text = `workloads:\n${batch().replace('runtime: 2h', 'runtime: 2d').replace('deadline: "06:00"', 'deadline: "06:00 +1d"')}\n`;
    const d = only(parseCatalog(FILE, text).diagnostics);
    expect(d.message).toContain('longer than its window 00:00–06:00 +1d (1d6h)');
  });

  it('reports every problem of one workload', () => {
    const text = `workloads:\n${batch('    gpus: 1\n    jobsPerDay: -1').replace('runtime: 2h', 'runtime: soon')}`;
    const { diagnostics } = parseCatalog(FILE, text);
    expect(diagnostics.map((d) => [d.line, d.message.split(':')[0]])).toEqual([
      [5, 'workloads[0].runtime'],
      [9, 'workloads[0].gpus'],
      [10, 'workloads[0].jobsPerDay'],
    ]);
  });

  it('keeps the good workloads when one is bad', () => {
    const text = [
      'workloads:',
      batch('', 'first'),
      batch('', 'broken').replace('gpusPerJob: 2', 'gpusPerJob: -2'),
      batch('', 'third'),
    ].join('\n');
    const { workloads, diagnostics } = parseCatalog(FILE, text);
    expect(workloads.map((w) => [w.name, w.source.line])).toEqual([
      ['first', 2],
      ['third', 16],
    ]);
    expect(only(diagnostics)).toMatchObject({ line: 11, message: match.stringMatching(/^workloads\[1\]\.gpusPerJob:/) });
  });
});

describe('parseCatalog: the file as a whole', () => {
  it.each([
    ['a tab as indentation', '\ttype: batch', 3, 'invalid YAML: Tabs are not allowed as indentation (lines 3–4)'],
    ['a bad indentation', '   gpus: 2', 3, 'invalid YAML: Sequence item without - indicator; check the indentation of lines 3–4'],
  ])('malformed YAML (%s): one error at the parser line, nothing kept', (_kind, bad, line, message) => {
    const text = ['workloads:', '  - name: x', bad, '    runtime: 2h', ''].join('\n');
    const { workloads, diagnostics } = parseCatalog(FILE, text);
    expect(workloads).toEqual([]);
    expect(only(diagnostics)).toEqual({ file: FILE, line, severity: 'error', message });
  });

  it('duplicate YAML keys are a YAML error at the repeated key', () => {
    const text = `workloads:\n${batch('    gpusPerJob: 4')}`;
    const d = parseCatalog(FILE, text).diagnostics;
    expect(d[0]).toMatchObject({ line: 9, severity: 'error', message: match.stringMatching(/unique/i) });
  });

  it.each(['', '\n', '# only a comment\n', '---\n'])('empty file %j', (text) => {
    expect(only(parseCatalog(FILE, text).diagnostics)).toEqual({
      file: FILE,
      line: null,
      severity: 'error',
      message: 'file is empty: expected a mapping with a `workloads:` list',
    });
  });

  it.each([
    ['a list', '- name: x\n', 'expected a mapping with a `workloads:` list, got a list'],
    ['a string', 'hello\n', 'expected a mapping with a `workloads:` list, got "hello"'],
    ['no workloads key', 'jobs: []\n', 'jobs: unknown field; the fields here are workloads'],
    ['workloads not a list', 'workloads: 3\n', 'workloads: must be a list, got 3'],
    ['workloads empty', 'workloads:\n', 'workloads: must be a list, got an empty value'],
  ])('not a catalog: %s', (_kind, text, message) => {
    const { workloads, diagnostics } = parseCatalog(FILE, text);
    expect(workloads).toEqual([]);
    expect(diagnostics.map((d) => d.message)).toContain(message);
    expect(diagnostics.every((d) => d.line === 1 && d.severity === 'error')).toBe(true);
  });

  it('a missing workloads key is named', () => {
    expect(parseCatalog(FILE, 'jobs: []\n').diagnostics.map((d) => d.message)).toEqual([
      'workloads: is required',
      'jobs: unknown field; the fields here are workloads',
    ]);
  });

  it('an unknown top-level key does not lose the workloads', () => {
    const { workloads, diagnostics } = parseCatalog(FILE, `version: 1\nworkloads:\n${batch()}`);
    expect(only(diagnostics)).toMatchObject({ line: 1, message: 'version: unknown field; the fields here are workloads' });
    expect(workloads).toHaveLength(1);
  });

  it('rejects __proto__ keys without touching prototypes', () => {
    const text = `workloads:\n${batch('    __proto__: {polluted: true}\n    selector:\n      __proto__: x')}`;
    const { workloads, diagnostics } = parseCatalog(FILE, text);
    expect(workloads).toEqual([]);
    expect(diagnostics.map((d) => [d.line, d.message])).toEqual([
      [9, 'workloads[0].__proto__: "__proto__" is not allowed as a key'],
      [11, 'workloads[0].selector.__proto__: "__proto__" is not allowed as a key'],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses alias bombs', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      lines.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    lines.push('workloads: []');
    const { diagnostics } = parseCatalog(FILE, lines.join('\n'));
    expect(diagnostics[0]).toMatchObject({ severity: 'error', message: match.stringMatching(/^invalid YAML: /) });
  });
});

describe('a catalog too large to read', () => {
  it('is refused with a diagnostic, not parsed', () => {
    const text = `workloads: []\n# ${'x'.repeat(MAX_FILE_CHARS)}\n`;
    const result = parseCatalog('gpu-workloads.yaml', text);
    expect(result.workloads).toEqual([]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        file: 'gpu-workloads.yaml',
        severity: 'error',
        message: match.stringMatching(/^1\.0 MB, over the 1\.0 MB gpu-justify reads/),
      }),
    ]);
  });
});

describe('parseCatalog: what a review learns about the entries it dropped', () => {
  it('keeps the queue and pool a rejected entry names, with its first error', () => {
    const text = [
      'workloads:',
      batch('    queue: research'),
      '  - name: etl',
      '    type: batch',
      '    queue: research',
      '    gpusPerJob: 1',
      '    runtime: 10m',
      '    jobsPerDay: 0',
      '    window: { earliestStart: "00:00", deadline: "06:00" }',
      '  - name: chat',
      '    type: inference',
      '    pool: l4-pool',
      '    gpusPerReplica: "one"',
      '    replicas: 2',
      '',
    ].join('\n');
    const result = parseCatalog(FILE, text);
    expect(result.workloads.map((w) => w.name)).toEqual(['nightly-eval']);
    expect(result.unreadable).toBeNull();
    expect(result.rejected).toEqual([
      {
        name: 'etl',
        queue: 'research',
        pool: null,
        problem: match.objectContaining({ line: 15, message: 'workloads[1].jobsPerDay: must be a positive whole number, got 0' }),
      },
      {
        name: 'chat',
        queue: null,
        pool: 'l4-pool',
        problem: match.objectContaining({ line: 20, message: match.stringMatching(/^workloads\[2\]\.gpusPerReplica:/) }),
      },
    ]);
  });

  it('counts a duplicate and a runtime longer than its window as rejected entries', () => {
    const long = [
      '  - name: long',
      '    type: batch',
      '    queue: c',
      '    gpusPerJob: 1',
      '    runtime: 7h',
      '    window: { earliestStart: "00:00", deadline: "06:00" }',
    ].join('\n');
    const text = `workloads:\n${batch('    queue: a')}\n${batch('    queue: b')}\n${long}\n`;
    const { rejected } = parseCatalog(FILE, text);
    expect(rejected.map((r) => [r.name, r.queue, r.problem.message.split(':')[0]])).toEqual([
      ['nightly-eval', 'b', 'workloads[1].name'],
      ['long', 'c', 'workloads[2].runtime'],
    ]);
  });

  it('says which error kept the whole file from being read', () => {
    const bad = parseCatalog(FILE, 'workloads:\n  - name: a\n    type: batch\n    queue: q\n     gpusPerJob: 4\n');
    expect(bad.unreadable).toMatchObject({ line: 4, message: match.stringMatching(/check the indentation of lines 4–5$/) });
    expect(parseCatalog(FILE, '').unreadable).toMatchObject({ severity: 'error', message: match.stringMatching(/^file is empty/) });
    expect(parseCatalog(FILE, '- a\n- b\n').unreadable).toMatchObject({ line: 1, message: match.stringMatching(/workloads/) });
    expect(parseCatalog(FILE, 'workloads: 3\n').unreadable).toMatchObject({ line: 1, message: 'workloads: must be a list, got 3' });
  });
});

describe('parseCatalog: what a draft leaves "unknown"', () => {
  it('parses, but keeps the entry out of the need and says which field the team must write', () => {
    const text = `workloads:\n${batch().replace('runtime: 2h', 'runtime: unknown').replace('"06:00"', 'unknown')}\n${batch('', 'known')}`;
    const result = parseCatalog('gpu-workloads.yaml', text);
    expect(result.unreadable).toBeNull();
    expect(result.workloads.map((w) => w.name)).toEqual(['known']);
    expect(result.diagnostics.map((d) => [d.line, d.severity, d.message])).toEqual([
      [
        5,
        'warning',
        'workloads[0].runtime: "unknown": write how long one run takes (the draft leaves it to your team); until then "nightly-eval" is left out of the need',
      ],
      [
        8,
        'warning',
        'workloads[0].window.deadline: "unknown": write when its results are needed (UTC) (the draft leaves it to your team); until then "nightly-eval" is left out of the need',
      ],
    ]);
    expect(result.rejected.map((r) => [r.name, r.problem])).toEqual([['nightly-eval', result.diagnostics[0]]]);
    // No deadline: only the team can state one, so nothing may fill the entry.
    expect(result.rejected[0]?.partial).toBeUndefined();
  });

  it('keeps an entry whose deadline is stated as written, its unknown runtime and start null, for a review to fill', () => {
    const text = `workloads:\n${batch('    selector: {namespace: etl}').replace('runtime: 2h', 'runtime: unknown').replace('"00:00"', 'unknown')}`;
    const result = parseCatalog('gpu-workloads.yaml', text);
    expect(result.workloads).toEqual([]);
    const [runtime, start] = result.diagnostics;
    expect(result.rejected[0]?.partial).toEqual({
      workload: {
        name: 'nightly-eval',
        type: 'batch',
        gpusPerJob: 2,
        runtime: null,
        jobsPerDay: 1,
        window: { earliestStart: null, deadline: 360 },
        interruptible: false,
        selector: { namespace: 'etl' },
        source: { file: 'gpu-workloads.yaml', line: 2 },
      },
      unknown: [
        { field: 'runtime', path: 'workloads[0].runtime', warning: runtime },
        { field: 'earliestStart', path: 'workloads[0].window.earliestStart', warning: start },
      ],
    });
  });

  it('accepts the word only where a draft may leave it: a GPU count must be a number', () => {
    const result = parseCatalog('gpu-workloads.yaml', `workloads:\n${batch().replace('gpusPerJob: 2', 'gpusPerJob: unknown')}`);
    expect(result.diagnostics.map((d) => d.severity)).toEqual(['error']);
  });
});
