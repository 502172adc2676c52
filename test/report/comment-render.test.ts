import { describe, expect, it } from 'vitest';
import { useMermaidPage } from './mermaid-page.js';
import { renderComment } from '../../src/report/comment.js';
import { renderMermaidBlocks, showComment, xychartLegends } from '../helpers/browser/comment-page.mjs';
import { allComments, demoComment, evilMeasured, evilReview, mermaidBlocks } from './comments.js';

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
    expect(charts.map((c) => c.diagramType)).toEqual(['gantt', 'xychart']);
    const xychart = chromium.page.locator('svg[aria-roledescription="xychart"]');
    const counts = {
      tasks: await chromium.page.locator('svg[aria-roledescription="gantt"] rect.task').count(),
      bars: await xychart.locator('.plot rect').count(),
      lines: await xychart.locator('.plot path').count(),
    };
    // Five runs drawn twice (today, proposed); no bars, five lines: in use today and proposed, capacity before and after, the need.
    expect(counts).toEqual({ tasks: 10, bars: 0, lines: 5 });
  });

  it('reports a chart mermaid cannot draw, so the test above can fail', async () => {
    const body = await demoComment();
    const broken = body.replace(/^( {2}y-axis "GPUs" 0 --> )\d+$/m, '$1');
    expect(broken).not.toBe(body);
    const charts = await draw(broken);
    expect(charts.map((c) => c.error === null).slice(0, 2)).toEqual([true, false]);
  });

  it('names every line of every demand chart in mermaid’s legend inside the picture, and in the key under it', async () => {
    let drawn = 0;
    for (const [name, body] of await allComments()) {
      const charts = await draw(body);
      const legends = await xychartLegends(chromium.page);
      const named = charts
        .filter((c) => c.diagramType === 'xychart')
        .map((c) => [...c.source.matchAll(/^ {2}line "([^"]*)"/gm)].map((m) => ({ text: m[1], inside: true })));
      expect(legends, name).toEqual(named);
      const keys = await chromium.page.locator('article p', { hasText: /^Key: / }).all();
      expect(keys, name).toHaveLength(named.length);
      for (const key of keys) expect(await key.isVisible(), name).toBe(true);
      drawn += named.length;
    }
    expect(drawn).toBeGreaterThan(5);
  });

  it('finds a legend name that runs out of the picture, so the test above can fail', async () => {
    const body = (await demoComment()).replace(/"legendPadding": \d+/, '"legendPadding": 10').replace(/"width": 900/, '"width": 1400');
    await draw(body);
    const outside = (await xychartLegends(chromium.page)).flat().some((entry) => !entry.inside);
    expect(outside).toBe(true);
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
