import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../helpers/browser/chromium.mjs';
import { openMermaidPage } from '../helpers/browser/comment-page.mjs';

/**
 * One headless Chromium with mermaid loaded, for the whole test file: loading mermaid is the slow
 * part, so tests reuse the page. Read `.page` inside tests (it is set before the first runs).
 */
export function useMermaidPage(): { readonly page: Page } {
  let browser: Browser | undefined;
  const holder = {} as { page: Page };
  beforeAll(async () => {
    browser = await launchChromium();
    holder.page = await openMermaidPage(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return holder;
}
