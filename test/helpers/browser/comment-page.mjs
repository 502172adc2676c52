// A PR comment as a reader sees it: GitHub-flavoured markdown to HTML, mermaid charts drawn,
// all offline. Plain JavaScript so scripts/render-demo.mjs can use it without a build step.
// Its page.evaluate() callbacks run in the page: the DOM's types, and mermaid's global (comment-page.d.mts).
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';

const MERMAID_SCRIPT = fileURLToPath(new URL('../../../node_modules/mermaid/dist/mermaid.min.js', import.meta.url));

// Enough of GitHub's look to judge a screenshot: its comment width, font, tables and code.
const CSS = `
body { margin: 0; background: #fff; color: #1f2328; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.markdown-body { max-width: 830px; padding: 16px 24px; }
table { border-collapse: collapse; display: block; overflow: auto; margin: 0 0 16px; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
tr:nth-child(2n) { background: #f6f8fa; }
code { background: #eff1f3; border-radius: 6px; padding: .2em .4em; font-size: 85%; }
details { margin: 0 0 16px; }
summary { cursor: pointer; font-weight: 600; }
sub { color: #59636e; }
.mermaid-chart { margin: 0 0 16px; }
`;

const marked = new Marked({ gfm: true, async: false });

/** @typedef {import('playwright-core').Browser} Browser */
/** @typedef {import('playwright-core').Page} Page */
/** @typedef {{ openDetails?: boolean }} ShowOptions */

/**
 * GitHub-flavoured markdown to HTML (GFM tables, task lists, raw `<details>`).
 * @param {string} markdown
 */
function markdownToHtml(markdown) {
  return /** @type {string} */ (marked.parse(markdown));
}

/**
 * A page with nothing but mermaid loaded; every request is refused, so nothing is fetched.
 * @param {Browser} browser
 */
export async function openMermaidPage(browser) {
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  await page.route('**/*', (route) => route.abort());
  await page.setContent(`<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head><body></body></html>`);
  await page.addScriptTag({ path: MERMAID_SCRIPT });
  await page.evaluate(() => {
    window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
  });
  return page;
}

/**
 * Puts a comment, rendered to HTML, in place of whatever the page showed; `<details>` opened unless told.
 * @param {Page} page
 * @param {string} markdown
 * @param {ShowOptions} [options]
 */
export async function showComment(page, markdown, options = {}) {
  await page.evaluate(
    ({ html, open }) => {
      document.body.innerHTML = `<article class="markdown-body">${html}</article>`;
      if (open) for (const d of document.querySelectorAll('details')) d.open = true;
    },
    { html: markdownToHtml(markdown), open: options.openDetails !== false },
  );
}

/**
 * A fresh page with mermaid loaded and the comment in it.
 * @param {Browser} browser
 * @param {string} markdown
 * @param {ShowOptions} [options]
 */
export async function openCommentPage(browser, markdown, options = {}) {
  const page = await openMermaidPage(browser);
  await showComment(page, markdown, options);
  return page;
}

/**
 * Mermaid's own parser on one chart's text: the diagram type, or the parse error.
 * @param {Page} page
 * @param {string} text
 * @returns {Promise<import('./comment-page.d.mts').MermaidParse>}
 */
export async function parseMermaid(page, text) {
  return page.evaluate(async (source) => {
    try {
      const parsed = await window.mermaid.parse(source);
      return { ok: true, diagramType: parsed.diagramType, error: null };
    } catch (err) {
      return {
        ok: false,
        diagramType: null,
        error: String(typeof err === 'object' && err !== null && 'message' in err ? err.message : err),
      };
    }
  }, text);
}

/**
 * Draws every ```mermaid block of the page in place, as GitHub does, and reports on each: an SVG
 * of some size, its diagram type, how many marks it drew, and any error mermaid raised or drew.
 * @param {Page} page
 * @returns {Promise<import('./comment-page.d.mts').MermaidRender[]>}
 */
export async function renderMermaidBlocks(page) {
  return page.evaluate(async () => {
    /** @type {import('./comment-page.d.mts').MermaidRender[]} */
    const results = [];
    const blocks = [...document.querySelectorAll('pre > code.language-mermaid')];
    for (const [index, code] of blocks.entries()) {
      const source = code.textContent;
      const holder = document.createElement('div');
      holder.className = 'mermaid-chart';
      code.parentElement.replaceWith(holder);
      let error = null;
      try {
        const { svg } = await window.mermaid.render(`chart-${index}`, source);
        holder.innerHTML = svg;
      } catch (err) {
        error = String(typeof err === 'object' && err !== null && 'message' in err ? err.message : err);
        holder.textContent = `mermaid error: ${error}`;
      }
      const svg = holder.querySelector('svg');
      const box = svg ? svg.getBoundingClientRect() : null;
      const drawnError = /syntax error/i.test(holder.textContent) || holder.querySelector('.error-icon') !== null;
      results.push({
        index,
        source,
        svg: svg !== null && box !== null && box.width > 0 && box.height > 0,
        diagramType: svg ? svg.getAttribute('aria-roledescription') : null,
        marks: svg ? svg.querySelectorAll('rect').length : 0,
        error: error ?? (drawnError ? 'mermaid drew its syntax-error box' : null),
      });
    }
    // mermaid.render leaves a scratch element behind when it fails; it is not part of the comment.
    for (const el of document.querySelectorAll('body > [id^="dchart-"]')) el.remove();
    return results;
  });
}

/**
 * The legend mermaid drew on each xychart of the page, in page order: each name, and whether it
 * lies wholly inside its chart's picture (a name past the edge is cut off where GitHub shows it).
 * @param {Page} page
 * @returns {Promise<import('./comment-page.d.mts').LegendEntry[][]>}
 */
export async function xychartLegends(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('svg[aria-roledescription="xychart"]')].map((svg) => {
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('g.legend g.label text')].map((text) => {
        const r = text.getBoundingClientRect();
        return { text: text.textContent, inside: r.width > 0 && r.left >= box.left && r.right <= box.right + 1 };
      });
    }),
  );
}
