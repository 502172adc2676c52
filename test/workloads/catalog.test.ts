import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import type { Workload } from '../../src/domain/workload.js';
import { parseCatalog } from '../../src/workloads/catalog.js';
import { batch, FILE, only } from './catalog-helpers.js';

const example = readFileSync(new URL('./fixtures/interfaces-example.yaml', import.meta.url), 'utf8');

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
