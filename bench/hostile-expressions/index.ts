import fc from 'fast-check';
import { parseBicepSet } from '../../src/detect/bicep/bicep-parser.js';
import { parseTerraformSet } from '../../src/detect/terraform/terraform-parser.js';
import { hostileBicep, hostileTerraform } from '../../test/helpers/hostile-expressions.js';
import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { fmt, HeapSampler, median, memoryReport, now, quantile, table } from '../lib/measure.js';

/**
 * The wall-clock side of test/detect/hostile-expressions.test.ts: the same generated shapes (same
 * seed), each read once in this thread. The tests assert that every reading ends within its
 * evaluation budget; here is how long that takes on this machine, which a shared machine stretches.
 */

const SAMPLES = 40;
const SEED = 26_27;

function timeEach(texts: readonly string[], read: (text: string) => { decls: readonly unknown[] }, sampler: HeapSampler) {
  const times: number[] = [];
  let whole = 0;
  for (const text of texts) {
    const start = now();
    if (read(text).decls.length > 0) whole += 1;
    times.push(now() - start);
    sampler.mark();
  }
  return { times, read: whole };
}

export const hostileExpressionsBench: Benchmark = {
  name: 'hostile-expressions',
  about: 'time to read generated hostile Terraform and Bicep expressions to their budget (the tests assert the budget)',
  async run(): Promise<BenchResult> {
    const sampler = new HeapSampler();
    const terraform = fc.sample(hostileTerraform, { numRuns: SAMPLES, seed: SEED }).map((s) => s.text);
    const bicep = fc.sample(hostileBicep, { numRuns: SAMPLES, seed: SEED });
    const rows: (string | number)[][] = [];
    const data: Record<string, unknown> = {};
    for (const [language, texts, read] of [
      ['Terraform', terraform, (text: string) => parseTerraformSet([{ path: 'infra/main.tf', text }])],
      ['Bicep', bicep, (text: string) => parseBicepSet([{ path: 'infra/main.bicep', text }])],
    ] as const) {
      const r = timeEach(texts, read, sampler);
      rows.push([language, texts.length, r.read, fmt(median(r.times), 1), fmt(quantile(r.times, 0.95), 1), fmt(Math.max(...r.times), 1)]);
      data[language] = {
        shapes: texts.length,
        read: r.read,
        medianMs: median(r.times),
        p95Ms: quantile(r.times, 0.95),
        maxMs: Math.max(...r.times),
      };
    }
    const markdown = [
      '## Hostile expressions',
      '',
      `${SAMPLES} generated shapes per language (seed ${SEED}), each read once: a shape read whole gives its count, the others stop at the budget, named.`,
      '',
      table(['language', 'shapes', 'read whole', 'median ms', 'p95 ms', 'max ms'], rows),
    ].join('\n');
    return { markdown, memory: memoryReport(sampler), data };
  },
};
