import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComment } from '../../src/report/comment.js';
import { launchChromium } from '../helpers/browser/chromium.mjs';
import { FIRST_SCREEN_POINTS, openWindowPage, showFolded, WINDOW } from '../helpers/browser/first-screen.mjs';
import { demoComment } from './comments.js';
import { LEVER_SCENARIOS } from './measured-scenarios.js';
import { SCENARIOS } from './scenarios.js';

// The four reviews BENCHMARKS.md publishes: measured, files only, too little evidence, a cheaper model.
const REVIEWS: [string, () => Promise<string>][] = [
  ['the demo', demoComment],
  ['a files-only review', async () => renderComment(await SCENARIOS['not-justified']())],
  ['an insufficient-evidence review', async () => renderComment(await SCENARIOS['insufficient-evidence']())],
  ['a cheaper-model review', async () => renderComment(LEVER_SCENARIOS['cheaper-model']())],
];

// One browser and one page for the file: loading mermaid is the slow part.
let browser: Browser | undefined;
let page: Page | undefined;
beforeAll(async () => {
  browser = await launchChromium();
  page = await openWindowPage(browser);
});
afterAll(async () => {
  await browser?.close();
});

function folded(markdown: string) {
  if (!page) throw new Error('no browser page');
  return showFolded(page, markdown);
}

describe('the first screen, 1000 px wide as GitHub folds the comment', () => {
  it.each(REVIEWS)('holds all six facts of %s within the first 900 px', async (_, make) => {
    const { points } = await folded(await make());
    for (const point of FIRST_SCREEN_POINTS) {
      expect({ point, shown: points[point] !== null }).toEqual({ point, shown: true });
      expect(points[point] ?? Infinity, point).toBeLessThanOrEqual(WINDOW.height);
    }
  });

  it('keeps the whole demo comment under 1,400 px', async () => {
    const { height } = await folded(await demoComment());
    expect(height).toBeLessThan(1_400);
  });

  it('finds a fact pushed below the fold, so the test above can fail', async () => {
    const body = await demoComment();
    const padded = body.replace(/^\*\*This PR asks:\*\*/m, `${'Padding paragraph.\n\n'.repeat(40)}**This PR asks:**`);
    expect(padded).not.toBe(body);
    const { points } = await folded(padded);
    expect(points.mode ?? 0).toBeGreaterThan(WINDOW.height);
    const { points: none } = await folded(body.replace(/\*\*Mode: /g, 'Mode: '));
    expect(none.mode).toBeNull();
  });
});
