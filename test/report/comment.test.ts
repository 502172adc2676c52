import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER, MAX_COMMENT, renderComment } from '../../src/report/comment.js';
import { catalog, queueFile, review, SCENARIOS } from './scenarios.js';

describe('renderComment', () => {
  it.each(Object.entries(SCENARIOS))('renders a %s review', async (verdict, scenario) => {
    const result = await scenario();
    expect(result.verdict).toBe(verdict);
    const body = renderComment(result, { headUrl: 'https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567' });
    expect(body.startsWith(COMMENT_MARKER)).toBe(true);
    expect(body).toMatchSnapshot();
  });

  it('puts the verdict, the request and the lever in the first line', async () => {
    const body = renderComment(await SCENARIOS['not-justified']());
    const first = body.split('\n').filter((l) => l !== '')[1] ?? '';
    expect(first).toContain('not justified');
    expect(first).toContain('+4 GPUs requested, 0 needed');
    expect(first).toMatch(/peak 4 GPUs instead of 8/);
  });

  it('draws the staggered schedule as a gantt chart with a start time per run', async () => {
    const body = renderComment(await SCENARIOS['not-justified']());
    const gantt = /```mermaid\n(gantt[\s\S]*?)```/.exec(body)?.[1] ?? '';
    expect(gantt.match(/^ {2}run \d, 2 GPUs :2000-01-01 \d\d:\d\d, 120m$/gm)).toHaveLength(4);
    expect(body.match(/schedule: "\d+ \d+ \* \* \*"/g)).toHaveLength(4);
  });

  it('escapes names that carry markdown or HTML', async () => {
    const evil = '<img src=x onerror=alert(1)>|b';
    const body = renderComment(
      await review({ 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog(evil) }, { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog(evil) }),
    );
    expect(body).not.toContain('<img');
    expect(body).not.toContain('onerror=alert(1)>|');
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;\\|b');
  });

  it('stays within GitHub’s comment limit with a very large PR', async () => {
    const base: Record<string, string> = { 'gpu-workloads.yaml': catalog() };
    const head: Record<string, string> = { 'gpu-workloads.yaml': catalog() };
    for (let i = 0; i < 400; i++) {
      base[`queues/${'x'.repeat(150)}-${i}.yaml`] = queueFile(1, `q-${'y'.repeat(200)}-${i}`);
      head[`queues/${'x'.repeat(150)}-${i}.yaml`] = queueFile(2, `q-${'y'.repeat(200)}-${i}`);
    }
    const body = renderComment(await review(base, head));
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT);
    expect(body).toMatch(/more changes not shown/);
  });

  it('shows a malformed file as a diagnostic with its line, and reaches no confident verdict', async () => {
    const result = await review(
      { 'q.yaml': queueFile(4), 'bad.yaml': queueFile(2, 'other'), 'gpu-workloads.yaml': catalog() },
      { 'q.yaml': queueFile(8), 'bad.yaml': 'kind: ClusterQueue\napiVersion: kueue.x-k8s.io/v1beta2\nspec: [unclosed\n', 'gpu-workloads.yaml': catalog() },
      { headroom: 0 },
    );
    expect(result.diagnostics.some((d) => d.file === 'bad.yaml' && d.line !== null && d.severity === 'error')).toBe(true);
    // The unreadable file might hide a GPU change, so no confident verdict.
    expect(result.verdict).toBe('insufficient-evidence');
    expect(result.gpusNeeded).toBeNull();
    expect(result.missingEvidence[0]?.what).toBe('a readable bad.yaml');
    const body = renderComment(result);
    expect(body).toMatch(/`bad\.yaml:\d+`/);
  });
});
