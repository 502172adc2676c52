// The comment as a reviewer first meets it: a 1000 px wide window, GitHub's default folding
// (every <details> closed unless it says `open`), and where on the page each of the six facts
// the first screen must hold ends. Plain JavaScript so scripts/render-demo.mjs can use it too.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { openMermaidPage, renderMermaidBlocks, showComment } from './comment-page.mjs';

/** What a window shows before any scrolling or unfolding, in CSS pixels. */
export const WINDOW = { width: 1000, height: 900 };

/** The facts the first screen holds, in reading order. */
export const FIRST_SCREEN_POINTS = /** @type {const} */ (['verdict', 'asks', 'numbers', 'do-this', 'evidence', 'mode']);

/**
 * A page the width of the window, mermaid loaded; reuse it for each comment (loading is slow).
 * @param {import('playwright-core').Browser} browser
 */
export async function openWindowPage(browser) {
  const page = await openMermaidPage(browser);
  await page.setViewportSize(WINDOW);
  return page;
}

/**
 * Shows the comment as GitHub folds it, charts drawn, and measures it.
 * @param {import('playwright-core').Page} page
 * @param {string} markdown
 */
export async function showFolded(page, markdown) {
  await showComment(page, markdown, { openDetails: false });
  await renderMermaidBlocks(page);
  const measured = await page.evaluate(() => {
    const article = document.querySelector('article');
    if (article === null) throw new Error('no comment on the page');
    const top = article.getBoundingClientRect().top;
    /** @param {Element | null | undefined} el */
    const bottom = (el) => (el ? Math.round(el.getBoundingClientRect().bottom - top) : null);
    /** The paragraph led by a bold phrase starting with `lead`, with the list that follows it. */
    const led = (/** @type {string} */ lead) => {
      const p = [...article.querySelectorAll(':scope > p')].find((x) => x.querySelector('strong')?.textContent.startsWith(lead));
      const next = p?.nextElementSibling;
      return next?.tagName === 'UL' ? next : p;
    };
    const numbers = [...article.querySelectorAll(':scope > table')].find((t) => t.querySelector('th')?.textContent.startsWith('GPUs in'));
    return {
      height: Math.round(article.getBoundingClientRect().height),
      points: {
        verdict: bottom(article.querySelector(':scope > h3')),
        asks: bottom(led('This PR asks')),
        numbers: bottom(numbers),
        'do-this': bottom(led('Do this')),
        evidence: bottom(led('Evidence')),
        mode: bottom(led('Mode')),
      },
    };
  });
  return measured;
}
