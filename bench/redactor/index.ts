import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { fmt, HeapSampler, memoryReport, quantile, table } from '../lib/measure.js';
import { Redactor } from '../../src/util/redact.js';
import { readings } from '../../src/util/text-readings.js';
import type { ReadingsTally } from '../../src/util/text-readings.js';

/**
 * The redactor on 64 KB texts (a comment's size), from plain prose to text made only of escapes
 * that read two or three ways: how many readings each gives, their characters against the text's,
 * and the time to redact it with the secrets a running App holds (its key, webhook secret, a
 * token, a Basic pair). The redactor runs on the App's thread for every write and log line.
 */

const SIZE = 64_000;
const RUNS = 7;

const SHAPES: Readonly<Record<string, string>> = {
  prose: 'The queue grows from 8 to 16 GPUs; nothing else changes in this pull request.\n',
  'escapes, one way': 'x&amp;\\u0026%26 ',
  'quotes and shell': "''\"\"'\\''ab\\ cd\\ ef ",
  'every ambiguity': "\\\\\\\\u0034\\\\26 %2526 ''\"\"'\\'' \u200b\n",
  // Every step a root of its own chain: soft breaks escaped and not, hex references of 3 digits.
  'soft breaks and references': '=3D=\r\n&#x2fd=0A\\u003d\\r\\n&#x326;=5C=\n ',
  'ambiguity, dumps and seams': '\\\\\\\\\\\\u0034&amp;amp;\\\\26 =3D%25 "a":"b", \'\'""\'\\\'\' 00 11 22 33 44 55 66 77 \u200b\n',
};

function appRedactor(): Redactor {
  const key = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEA7'.repeat(100).replace(/(.{64})/g, '$1\n')}\n-----END RSA PRIVATE KEY-----`;
  return new Redactor().add(key, 'webhook-secret-9f8e7d', `ghs_${'a1B2'.repeat(9)}`).addBasic('reader', "p&<>'/+= Zq~x");
}

export const redactorBench: Benchmark = {
  name: 'redactor',
  about: 'the redactor on 64 KB texts from prose to escapes read every way: readings, characters and time',
  async run(): Promise<BenchResult> {
    const sampler = new HeapSampler();
    const r = appRedactor();
    const rows: (string | number)[][] = [];
    const data: Record<string, unknown> = {};
    for (const [name, unit] of Object.entries(SHAPES)) {
      const text = unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
      const tally: ReadingsTally = { kept: 0, dropped: 0 };
      const chars = readings(text, tally, r.traits).reduce((n, x) => n + x.text.length, 0);
      r.redact(text);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        r.redact(text);
        times.push(performance.now() - t);
        sampler.mark();
      }
      const median = quantile(times, 0.5);
      rows.push([name, tally.kept, tally.dropped, fmt(chars / text.length, 1), fmt(median, 0), fmt(Math.max(...times), 0)]);
      data[name] = { readings: tally.kept, dropped: tally.dropped, charsPerChar: chars / text.length, medianMs: median };
    }
    const markdown = [
      `### Redactor (${SIZE.toLocaleString('en-US')}-character texts, median of ${RUNS})`,
      '',
      table(['text', 'readings', 'left out', 'characters read / text', 'median ms', 'slowest ms'], rows),
    ].join('\n');
    await Promise.resolve();
    return { markdown, memory: memoryReport(sampler), data };
  },
};
