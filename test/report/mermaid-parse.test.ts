import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser/chromium.mjs';
import { openMermaidPage, parseMermaid } from '../helpers/browser/comment-page.mjs';
import { allComments, mermaidBlocks } from './comments.js';

// Mermaid's full parser needs a DOM (its xychart sanitises labels with DOMPurify), so it runs
// in the same headless Chromium the rendering test uses.
let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchChromium();
  page = await openMermaidPage(browser);
});
afterAll(async () => {
  await browser?.close();
});

describe('mermaid charts in the comment', () => {
  it('parse with mermaid’s own parser, for the demo, every verdict and hostile names', async () => {
    const comments = await allComments();
    let charts = 0;
    for (const [name, body] of comments) {
      for (const block of mermaidBlocks(body)) {
        const parsed = await parseMermaid(page, block);
        expect(parsed, `${name}:\n${block}`).toEqual({ ok: true, diagramType: expect.stringMatching(/^(gantt|xychart)$/), error: null });
        charts += 1;
      }
    }
    // Demo, not-justified, partially-justified, justified and hostile names each draw two.
    expect(charts).toBe(10);
  });

  it('fails a broken chart, so the check above can fail', async () => {
    const [, body] = (await allComments())[0] ?? ['', ''];
    const [gantt = '', xychart = ''] = mermaidBlocks(body);
    // A task whose data is gone (as when a name's own `:` ends it early), and a series with an
    // unclosed bracket.
    const brokenGantt = gantt.replace(/ :active, .*$/m, ' :');
    const brokenXy = xychart.replace(/bar \[(.*)\]/, 'bar [$1');
    expect(brokenGantt).not.toBe(gantt);
    expect(brokenXy).not.toBe(xychart);
    expect((await parseMermaid(page, brokenGantt)).ok).toBe(false);
    expect((await parseMermaid(page, brokenXy)).error).toMatch(/parse error/i);
  });
});
