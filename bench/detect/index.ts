import { detectChanges } from '../../src/detect/detect-changes.js';
import { PARSERS } from '../../src/detect/registry.js';
import type { ChangeSet } from '../../src/domain/index.js';
import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { fmt, HeapSampler, median, memoryReport, quantile, sum, table, timed } from '../lib/measure.js';
import { countingParsers } from './counting-parsers.js';
import { syntheticPr } from './synthetic-pr.js';
import type { FileCategory, SyntheticFile } from './synthetic-pr.js';

const FILES = 500;
const REPEATS = 30;
const WARMUP = 3;

function changeSetOf(files: readonly SyntheticFile[]): ChangeSet {
  const base = new Map(files.filter((f) => f.base !== null).map((f) => [f.path, f.base as string]));
  const head = new Map(files.map((f) => [f.path, f.head]));
  const paths = files.map((f) => f.path);
  return {
    base: { label: 'base', read: (p) => Promise.resolve(base.get(p) ?? null) },
    head: { label: 'head', read: (p) => Promise.resolve(head.get(p) ?? null) },
    changedPaths: () => Promise.resolve(paths),
  };
}

async function run(): Promise<BenchResult> {
  const sampler = new HeapSampler();
  const files = syntheticPr(FILES);
  const changes = changeSetOf(files);

  // Timing: the registry as shipped, no wrappers; the first runs warm the JIT and are dropped.
  const totals: number[] = [];
  let detected = 0;
  for (let i = 0; i < WARMUP + REPEATS; i++) {
    const { value, ms } = await timed(() => detectChanges(changes, PARSERS));
    if (i >= WARMUP) totals.push(ms);
    detected = value.changes.length;
    sampler.mark();
  }

  // Counting: one more run through wrapped parsers.
  const counting = countingParsers(PARSERS);
  const wrappedRun = await timed(() => detectChanges(changes, counting.parsers));
  sampler.mark();
  if (wrappedRun.value.changes.length !== detected) throw new Error('wrapped parsers changed the result');

  const categories = [...new Set(files.map((f) => f.category))] as FileCategory[];
  const rows = categories.map((cat) => {
    const inCat = files.filter((f) => f.category === cat);
    const tallies = inCat.map((f) => counting.tally.get(f.path));
    const pathRejected = tallies.filter((t) => !t || (t.pathChecks > 0 && t.pathAccepted === 0 && t.cheapChecks === 0)).length;
    const cheapRejected = tallies.filter((t) => t && t.cheapChecks > 0 && t.cheapAccepted === 0 && t.fullParses === 0).length;
    const parsed = tallies.filter((t) => t && t.fullParses > 0).length;
    const cheapMs = sum(tallies.map((t) => t?.cheapMs ?? 0));
    const fullMs = sum(tallies.map((t) => t?.fullMs ?? 0));
    return {
      cat,
      n: inCat.length,
      pathRejected,
      cheapRejected,
      parsed,
      cheapMs,
      fullMs,
      checks: sum(tallies.map((t) => t?.cheapChecks ?? 0)),
      parses: sum(tallies.map((t) => t?.fullParses ?? 0)),
    };
  });
  const nonGpu = rows.filter((r) => r.cat !== 'gpu-corpus');
  const allCheap = sum(rows.map((r) => r.cheapMs));
  const allFull = sum(rows.map((r) => r.fullMs));
  const med = median(totals);

  const markdown = [
    `### detect: ${files.length} changed files through \`detectChanges\` (in-memory ChangeSet)`,
    '',
    table(
      ['figure', 'value'],
      [
        [
          'changed files (non-GPU / GPU corpus)',
          `${files.length} (${sum(nonGpu.map((r) => r.n))} / ${files.length - sum(nonGpu.map((r) => r.n))})`,
        ],
        ['capacity changes found', detected],
        [`total, median of ${REPEATS} runs (p10 … p90)`, `${fmt(med)} ms (${fmt(quantile(totals, 0.1))} … ${fmt(quantile(totals, 0.9))})`],
        ['per changed file (median total ÷ files)', `${fmt((med * 1000) / files.length, 1)} µs`],
        ['non-GPU files that reached a full parse', sum(nonGpu.map((r) => r.parsed))],
        [
          'parser time on the non-GPU files / on the GPU files',
          `${fmt(sum(nonGpu.map((r) => r.cheapMs + r.fullMs)))} ms / ${fmt(sum(rows.filter((r) => r.cat === 'gpu-corpus').map((r) => r.cheapMs + r.fullMs)))} ms`,
        ],
        [
          'wrapped run: total / outside the parsers (reads, comparison)',
          `${fmt(wrappedRun.ms)} ms / ${fmt(wrappedRun.ms - allCheap - allFull)} ms`,
        ],
        [
          'time in cheap checks / full parses (wrapped run)',
          `${fmt(allCheap)} ms / ${fmt(allFull)} ms (${fmt((100 * allCheap) / (allCheap + allFull), 1)}% / ${fmt((100 * allFull) / (allCheap + allFull), 1)}%)`,
        ],
      ],
    ),
    '',
    'Per category (one wrapped run; a file counts as "rejected by path" when every parser\'s `acceptsPath` said no, "by cheap check" when some parser looked at its text and every `mightContain` said no):',
    '',
    table(
      [
        'category',
        'files',
        'rejected by path',
        'rejected by cheap check',
        'fully parsed',
        '`mightContain` calls',
        'full parses',
        'cheap-check time ms',
        'full-parse time ms',
        'µs per file (both)',
      ],
      rows.map((r) => [
        r.cat,
        r.n,
        r.pathRejected,
        r.cheapRejected,
        r.parsed,
        r.checks,
        r.parses,
        fmt(r.cheapMs),
        fmt(r.fullMs),
        fmt(((r.cheapMs + r.fullMs) * 1000) / r.n, 1),
      ]),
    ),
  ].join('\n');

  return {
    markdown,
    memory: memoryReport(sampler),
    data: { files: files.length, detected, medianMs: med, totals, rows, wrappedMs: wrappedRun.ms },
  };
}

export const detectBench: Benchmark = {
  name: 'detect',
  about: 'detectChanges over a synthetic 500-file PR; cheap checks vs full parses',
  run,
};
