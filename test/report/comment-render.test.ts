import { describe, expect, it } from 'vitest';
import { useMermaidPage } from './mermaid-page.js';
import { renderComment } from '../../src/report/comment.js';
import { renderMermaidBlocks, showComment } from '../helpers/browser/comment-page.mjs';
import { allComments, demoComment, evilMeasured, evilReview, mermaidBlocks } from './comments.js';
import { LEVER_SCENARIOS } from './measured-scenarios.js';

// One browser and one page for the file (loading mermaid is the slow part).
const chromium = useMermaidPage();

async function draw(markdown: string) {
  await showComment(chromium.page, markdown);
  return renderMermaidBlocks(chromium.page);
}

describe('the comment rendered in headless Chromium', () => {
  it('draws every chart as an SVG with no syntax-error box, for the demo and every verdict', async () => {
    for (const [name, body] of await allComments()) {
      const charts = await draw(body);
      expect(
        charts.map((c) => c.source),
        name,
      ).toEqual(mermaidBlocks(body));
      for (const chart of charts) {
        expect({ name, svg: chart.svg, error: chart.error }).toEqual({ name, svg: true, error: null });
      }
    }
  });

  it('draws the demo’s today-vs-proposed gantt and its demand chart', async () => {
    const charts = await draw(await demoComment());
    // The third chart, when the demo replays telemetry, is its ladder.
    expect(charts.map((c) => c.diagramType).slice(0, 2)).toEqual(['gantt', 'xychart']);
    const counts = {
      tasks: await chromium.page.locator('svg[aria-roledescription="gantt"] rect.task').count(),
      bars: await chromium.page.locator('svg[aria-roledescription="xychart"]').first().locator('.bar-plot-0 rect').count(),
    };
    // Five runs drawn twice (today, proposed), and a bar per hour.
    expect(counts).toEqual({ tasks: 10, bars: 24 });
  });

  it('reports a chart mermaid cannot draw, so the test above can fail', async () => {
    const body = await demoComment();
    const broken = body.replace(/^( {2}y-axis "GPUs" 0 --> )\d+$/m, '$1');
    expect(broken).not.toBe(body);
    const charts = await draw(broken);
    expect(charts.map((c) => c.error === null).slice(0, 2)).toEqual([true, false]);
  });

  it('draws the ladder as one column per pool, queue or workload, four nested bars each', async () => {
    const charts = await draw(renderComment(LEVER_SCENARIOS['reclaim-idle']()));
    expect(charts.map((c) => c.diagramType)).toEqual(['gantt', 'xychart', 'xychart']);
    expect(charts.every((c) => c.svg && c.error === null)).toBe(true);
    const ladder = chromium.page.locator('svg[aria-roledescription="xychart"]').nth(1);
    // Training queue, train and finetune: allocated, busy, computing and tensor bars for each.
    const bars = await Promise.all([0, 1, 2, 3].map((i) => ladder.locator(`.bar-plot-${i} rect`).count()));
    expect(bars).toEqual([3, 3, 3, 3]);
  });

  it.each([
    ['a file', evilReview],
    ['measured telemetry', async () => evilMeasured()],
  ])('lets no name from %s inject HTML into the page', async (_, make) => {
    await showComment(chromium.page, renderComment(await make()));
    const injected = {
      imgs: await chromium.page.locator('article img').count(),
      onerror: await chromium.page.locator('[onerror]').count(),
      text: (await chromium.page.locator('article').textContent()) ?? '',
    };
    expect(injected.imgs).toBe(0);
    expect(injected.onerror).toBe(0);
    // The name shows as text instead.
    expect(injected.text).toContain('<img src=x onerror=alert(1)>|b');
  });
});
