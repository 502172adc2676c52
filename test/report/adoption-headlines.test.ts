import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/report/comment.js';
import { catalog, queueFile, review } from './scenarios.js';

/** A real device-plugin ConfigMap with several time-slicing profiles (fixtures/SOURCES.md). */
const TIME_SLICING = readFileSync(new URL('./fixtures/hpcgame-gpu-time-slicing-config.yaml', import.meta.url), 'utf8');
const FILE = 'gpu-operator/time-slicing-config.yaml';

function headlineOf(body: string): string {
  return body.split('\n').find((l) => l.startsWith('### ')) ?? '';
}

function summaries(body: string): string[] {
  return [...body.matchAll(/<summary>(.*)<\/summary>/g)].map((m) => m[1] ?? '');
}

describe('headlines a platform team reads first', () => {
  it('more time-slicing replicas is no new hardware, not a cut', async () => {
    const head = TIME_SLICING.replace('replicas: 8', 'replicas: 12');
    const result = await review({ [FILE]: TIME_SLICING }, { [FILE]: head });
    expect(result.changes.map((c) => [c.kind, c.delta])).toEqual([['gpu-sharing', 4]]);
    const body = renderComment(result);
    expect(headlineOf(body)).toBe(
      '### ✅ **No new GPUs**: only GPU sharing changed (gpu-time-slicing-config/v100-16gb-shared: each GPU advertised as 12, was 8); the hardware stays as it is.',
    );
  });

  it('notes about the files are not titled problems', async () => {
    const head = TIME_SLICING.replace('replicas: 8', 'replicas: 12');
    const body = renderComment(await review({ [FILE]: TIME_SLICING }, { [FILE]: head }));
    // The file's three profiles each get an info note; none is a problem.
    expect(summaries(body)).toContain('Notes on the files (3)');
    expect(body).not.toContain('Problems reading the files');
  });

  it('problems and notes together are counted apart', async () => {
    const head = TIME_SLICING.replace('replicas: 8', 'replicas: 12');
    const result = await review(
      { [FILE]: TIME_SLICING, 'q.yaml': queueFile(4) },
      { [FILE]: head, 'q.yaml': queueFile('{{ .Values.gpus }}') },
    );
    const warnings = result.diagnostics.filter((d) => d.severity !== 'info').length;
    expect(warnings).toBeGreaterThan(0);
    expect(summaries(renderComment(result))).toContain(`Problems reading the files (${warnings}) and notes (3)`);
  });

  it('a count that became unknown is not "no change": the file is named as not followed', async () => {
    // A ClusterQueue whose quota becomes a Helm expression: nothing countable changed, but the count is unknown.
    const result = await review(
      { 'q.yaml': queueFile('{{ .Values.oldGpus }}'), 'gpu-workloads.yaml': catalog() },
      { 'q.yaml': queueFile('{{ .Values.gpus }}'), 'gpu-workloads.yaml': catalog() },
    );
    if (result.verdict !== 'insufficient-evidence') throw new Error(`expected insufficient-evidence, got ${result.verdict}`);
    expect(result.diagnostics.some((d) => d.severity === 'warning')).toBe(true);
    expect(headlineOf(renderComment(result))).toMatch(
      /^### .* \*\*.*\*\*: q\.yaml could change GPU capacity in ways this review did not follow \(below\)\.$/,
    );
    // A known quota turned into an expression may hide any growth: no verdict of "no change" then.
    const hidden = await review(
      { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog() },
      { 'q.yaml': queueFile('{{ .Values.gpus }}'), 'gpu-workloads.yaml': catalog() },
    );
    expect(hidden.verdict).toBe('insufficient-evidence');
    const plain = await review({ 'README.md': 'a' }, { 'README.md': 'b' });
    expect(headlineOf(renderComment(plain))).toBe('### ➖ **No GPU capacity change**: this pull request changes no GPU capacity.');
  });
});
