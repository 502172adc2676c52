import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import type { StaggerJson } from '../../src/cli/commands/stagger.js';

/** `stagger --json` in the shape src/ builds it (docs/json.md). */
const staggerOut = (stdout: string) => JSON.parse(stdout) as StaggerJson;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gpu-justify-stagger-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const entry = (name: string, link: string, gpus: number, jobsPerDay: string | number) =>
  [
    `  - name: ${name}`,
    '    type: batch',
    `    ${link}`,
    `    gpusPerJob: ${gpus}`,
    '    runtime: 2h',
    `    jobsPerDay: ${jobsPerDay}`,
    '    window: { earliestStart: "00:00", deadline: "06:00" }',
  ].join('\n');

async function catalog(name: string, entries: string[]): Promise<{ file: string; text: string }> {
  const text = `workloads:\n${entries.join('\n')}\n`;
  const file = join(dir, name);
  await writeFile(file, text);
  return { file, text };
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('gpu-justify stagger with a broken catalog entry', () => {
  it('says the plan of a queue is incomplete when an entry of that queue is left out, and exits 2', async () => {
    // Two 2-GPU runs fit one after the other in 4 GPUs... unless the 8-GPU sweep is counted.
    const { file, text } = await catalog('queue.yaml', [
      entry('nightly-eval', 'queue: research', 2, 2),
      entry('weekly-sweep', 'queue: research', 8, '"two"'),
    ]);
    const { code, stdout, stderr } = await runCli('stagger', '--catalog', file, '--queue', 'research', '--json');
    expect(code).toBe(2);
    const line = lineOf(text, 'jobsPerDay: "two"');
    expect(stderr).toContain(`${file}:${line}: error: workloads[1].jobsPerDay`);
    expect(stderr).toContain(
      `the plan is incomplete: 1 catalog entry of queue research left out for its errors: weekly-sweep (${file}:${line})`,
    );
    const json = staggerOut(stdout);
    // The fields docs/json.md documents keep their meaning; the extension says what is missing.
    expect(json).toMatchObject({ peakGpus: 2, lowerBound: 2, optimal: true, capacity: null, complete: false });
    expect(json.leftOut).toEqual([
      { workload: 'weekly-sweep', file, line, message: 'workloads[1].jobsPerDay: must be a positive whole number, got "two"' },
    ]);
  });

  it('prints the partial plan under a warning in text mode, still exiting 2', async () => {
    const { file } = await catalog('text.yaml', [
      entry('nightly-eval', 'queue: research', 2, 2),
      entry('weekly-sweep', 'queue: research', 8, 0),
    ]);
    const { code, stdout } = await runCli('stagger', '--catalog', file, '--queue', 'research', '--capacity', '2');
    expect(code).toBe(2);
    expect(stdout.split('\n')[0]).toBe('Incomplete plan: 1 catalog entry is left out for errors (see above); the peak may be higher.');
    expect(stdout).toContain('Fits in 2 GPUs.');
  });

  it('plans a queue whose own entries are sound, whatever is broken elsewhere', async () => {
    const { file } = await catalog('other.yaml', [entry('nightly-eval', 'queue: research', 2, 2), entry('etl', 'queue: batch', 1, 0)]);
    const { code, stdout } = await runCli('stagger', '--catalog', file, '--queue', 'research', '--json');
    expect(code).toBe(0);
    expect(staggerOut(stdout)).toMatchObject({ peakGpus: 2, complete: true, leftOut: [] });
  });

  it.each([
    {
      what: 'counts every broken entry when no queue or pool is chosen',
      name: 'all.yaml',
      entries: [entry('nightly-eval', 'queue: research', 2, 2), entry('etl', 'queue: batch', 1, 0)],
      chosen: [],
      leftOut: ['etl'],
    },
    {
      what: 'matches a pool the same way',
      name: 'pool.yaml',
      entries: [entry('train', 'pool: a100', 4, 1), entry('tune', 'pool: a100', 4, -1), entry('etl', 'pool: cpu', 1, 0)],
      chosen: ['--pool', 'a100'],
      leftOut: ['tune'],
    },
  ])('$what', async ({ name, entries, chosen, leftOut }) => {
    const { file } = await catalog(name, entries);
    const { code, stdout } = await runCli('stagger', '--catalog', file, ...chosen, '--json');
    expect(code).toBe(2);
    expect(staggerOut(stdout).leftOut.map((e) => e.workload)).toEqual(leftOut);
  });

  it('plans nothing when every entry of the queue is broken, and says which', async () => {
    const { file, text } = await catalog('none.yaml', [entry('nightly-eval', 'queue: research', 2, 2), entry('etl', 'queue: batch', 1, 0)]);
    const { code, stdout, stderr } = await runCli('stagger', '--catalog', file, '--queue', 'batch');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`left out for its errors: etl (${file}:${lineOf(text, 'jobsPerDay: 0')})`);
  });
});

describe('gpu-justify stagger on one-GPU jobs', () => {
  it('says "Peak 1 GPU", not "1 GPUs"', async () => {
    const { file } = await catalog('one-gpu.yaml', [entry('vision', 'pool: gpu', 1, 3)]);
    const { code, stdout } = await runCli('stagger', '--catalog', file, '--pool', 'gpu', '--capacity', '4');
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('Peak 1 GPU (optimal); all at once: 3.');
  });
});

describe('gpu-justify stagger on a weekly plan', () => {
  // Every run forced by its window: Saturday 22:00–01:00 for the training, 23:00–01:00 on Monday
  // and Sunday nights for the evaluation (Sunday's ends on the next Monday).
  const weekly = [
    '  - name: weekend-train',
    '    type: training',
    '    queue: research',
    '    gpusPerJob: 4',
    '    runtime: 3h',
    '    days: [sat]',
    '    window: { earliestStart: "22:00", deadline: "01:00" }',
    '  - name: nightly-eval',
    '    type: batch',
    '    queue: research',
    '    gpusPerJob: 2',
    '    runtime: 2h',
    '    days: [sun, mon]',
    '    window: { earliestStart: "23:00", deadline: "01:00" }',
  ];

  it('says the cycle is a week and the day each run starts, times still HH:MM', async () => {
    const { file } = await catalog('weekly.yaml', weekly);
    const { code, stdout } = await runCli('stagger', '--catalog', file, '--json');
    expect(code).toBe(0);
    const json = staggerOut(stdout);
    expect(json).toMatchObject({ peakGpus: 4, optimal: true, cycle: 'week', complete: true });
    expect(json.schedule).toEqual([
      { workload: 'weekend-train', run: 1, day: 'sat', start: '22:00', end: '01:00', gpus: 4 },
      { workload: 'nightly-eval', run: 1, day: 'mon', start: '23:00', end: '01:00', gpus: 2 },
      { workload: 'nightly-eval', run: 2, day: 'sun', start: '23:00', end: '01:00', gpus: 2 },
    ]);
  });

  it('prints a Day column and says the plan repeats weekly', async () => {
    const { file } = await catalog('weekly-text.yaml', weekly);
    const { code, stdout } = await runCli('stagger', '--catalog', file);
    expect(code).toBe(0);
    const out = stdout.split('\n');
    expect(out).toContain('The plan repeats weekly from Monday 00:00 UTC; Day is the weekday each run starts.');
    const cells = (l: string) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
    const table = out.filter((l) => l.startsWith('| ') && !l.startsWith('| -'));
    expect(table.map(cells)).toEqual([
      ['Workload', 'Run', 'GPUs', 'Day', 'Start (UTC)', 'End'],
      ['weekend-train', '1', '4', 'Sat', '22:00', '01:00'],
      ['nightly-eval', '1', '2', 'Mon', '23:00', '01:00'],
      ['nightly-eval', '2', '2', 'Sun', '23:00', '01:00'],
    ]);
  });

  it('keeps a daily plan as it was: cycle "day", no day on the runs, no Day column', async () => {
    const { file } = await catalog('daily.yaml', [entry('nightly-eval', 'queue: research', 2, 2)]);
    const json = staggerOut((await runCli('stagger', '--catalog', file, '--json')).stdout);
    expect(json.cycle).toBe('day');
    for (const run of json.schedule) expect(Object.keys(run)).toEqual(['workload', 'run', 'start', 'end', 'gpus']);
    const { stdout } = await runCli('stagger', '--catalog', file);
    expect(stdout).not.toContain('weekly');
    expect(stdout).toMatch(/^\| Workload +\| Run \| GPUs \| Start \(UTC\) \| End +\|$/m);
  });
});
