import type { BenchResult } from './lib/benchmark.js';
import { fmt, HeapSampler, memoryReport, table } from './lib/measure.js';

/**
 * A process that loads what the detect and app runs load, and does nothing: the floor their
 * peaks are read against.
 */
export async function baselineResult(): Promise<BenchResult> {
  const sampler = new HeapSampler();
  await import('../src/detect/detect-changes.js');
  await import('../src/github/app/app.js');
  await import('probot');
  sampler.mark();
  return { markdown: '', memory: memoryReport(sampler), data: {} };
}

export function memoryMarkdown(runs: { baseline: BenchResult; detect: BenchResult; app: BenchResult }): string {
  const base = runs.baseline.memory;
  const row = (name: string, r: BenchResult, what: string) => [
    name,
    what,
    fmt(r.memory.maxRssMiB, 1),
    fmt(r.memory.maxRssMiB - base.maxRssMiB, 1),
    fmt(r.memory.peakHeapMiB, 1),
    fmt(r.memory.peakHeapMiB - base.peakHeapMiB, 1),
    r.memory.retainedHeapMiB === null ? '–' : fmt(r.memory.retainedHeapMiB, 1),
  ];
  return [
    '### memory: peak RSS and heap, each run in its own Node process',
    '',
    table(
      [
        'run',
        'what it did',
        'peak RSS MiB',
        'over baseline',
        'peak heap used MiB (sampled)',
        'over baseline',
        'heap reachable at the end, after GC, MiB',
      ],
      [
        row('baseline', runs.baseline, 'loaded detect, the App and Probot; did nothing'),
        row(
          'detect',
          runs.detect,
          `${String(runs.detect.data['files'])}-file PR, ${String((runs.detect.data['totals'] as unknown[] | undefined)?.length ?? 0)}+4 detections`,
        ),
        row(
          'app',
          runs.app,
          `webhook server + fake GitHub, ${typeof runs.app.data['prs'] === 'number' ? runs.app.data['prs'] : '?'} PRs and the call-count scenarios`,
        ),
      ],
    ),
    ...appGrowth(runs.app),
  ].join('\n');
}

/** Reachable heap at points of the app run: growth with the number of PRs would be a leak. */
function appGrowth(app: BenchResult): string[] {
  const points = app.data['retainedByPr'] as [number, number | null][] | undefined;
  if (!points || points.some(([, mib]) => mib === null)) return [];
  return [
    '',
    `App run, heap reachable after GC (MiB) by PRs delivered: ${points.map(([n, mib]) => `${n}: ${fmt(mib ?? NaN, 1)}`).join(', ')}. The bench drops the fake GitHub's request log after each PR; the fake still keeps each PR's routes and file trees (a few KiB per PR), so that much growth is the harness's: as JSON, the comments, check runs, suggestions and trees it keeps come to ${fmt(Number(app.data['fakeHeldKiBPerPr']), 1)} KiB per PR.`,
  ];
}
