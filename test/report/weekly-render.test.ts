import { describe, expect, it } from 'vitest';
import { useMermaidPage } from './mermaid-page.js';
import { renderComment } from '../../src/report/comment.js';
import { parseMermaid, renderMermaidBlocks, showComment, xychartLegends } from '../helpers/browser/comment-page.mjs';
import { mermaidBlocks } from './comments.js';
import { queueFile, review } from './scenarios.js';

// One browser and one page for the file (loading mermaid is the slow part).
const chromium = useMermaidPage();

// A Saturday training pair and an evaluation four nights a week: the plan repeats weekly.
const WEEKLY_CATALOG = `workloads:
  - name: weekend-train
    type: training
    queue: research
    gpusPerJob: 4
    runtime: 3h
    jobsPerDay: 2
    days: [sat]
    window: { earliestStart: "22:00", deadline: "06:00" }
  - name: nightly-eval
    type: batch
    queue: research
    gpusPerJob: 2
    runtime: 2h
    jobsPerDay: 2
    days: [mon, wed, fri, sun]
    window: { earliestStart: "23:00", deadline: "05:00" }
`;

async function weeklyComment(): Promise<string> {
  const result = await review(
    { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': WEEKLY_CATALOG },
    { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': WEEKLY_CATALOG },
    { headroom: 0 },
  );
  expect(result.reviews[0]?.plan?.cycle).toBe(7 * 1440);
  return renderComment(result);
}

describe('a weekly plan’s charts in headless Chromium', () => {
  it('parse and draw, the gantt ticking each weekday and the demand chart a point per six hours', async () => {
    const body = await weeklyComment();
    const blocks = mermaidBlocks(body);
    for (const block of blocks) expect((await parseMermaid(chromium.page, block)).ok, block).toBe(true);
    await showComment(chromium.page, body);
    const charts = await renderMermaidBlocks(chromium.page);
    expect(charts.map((c) => [c.diagramType, c.svg, c.error])).toEqual([
      ['gantt', true, null],
      ['xychart', true, null],
    ]);
    const ticks = await chromium.page.locator('svg[aria-roledescription="gantt"] .tick text').allTextContents();
    // The runs span Monday night to the next Monday: a tick at each midnight, named by weekday.
    expect(ticks).toEqual(['Tue 00:00', 'Wed 00:00', 'Thu 00:00', 'Fri 00:00', 'Sat 00:00', 'Sun 00:00', 'Mon 00:00']);
    // A line each for in use today and proposed, capacity before and after, and the need; no bars.
    const xychart = chromium.page.locator('svg[aria-roledescription="xychart"]');
    expect([await xychart.locator('.plot path').count(), await xychart.locator('.plot rect').count()]).toEqual([5, 0]);
    // The week's chart is wider than the page: its legend still fits inside the picture as drawn.
    const legend = (await xychartLegends(chromium.page)).flat();
    expect(legend.map((e) => e.text)).toEqual([
      'Capacity before (4)',
      'Capacity after (8)',
      'Need (4)',
      'In use today',
      'In use, proposed',
    ]);
    expect(legend.every((e) => e.inside)).toBe(true);
    expect(body).toContain('GPUs in use over a week in research');
  });
});
