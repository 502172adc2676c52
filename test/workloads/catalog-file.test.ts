import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { MAX_FILE_CHARS } from '../../src/domain/limits.js';
import { parseCatalog } from '../../src/workloads/catalog.js';
import { batch, FILE, only } from './catalog-helpers.js';

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
