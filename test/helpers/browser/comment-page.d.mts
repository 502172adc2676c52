import type { Mermaid } from 'mermaid';
import type { Browser, Page } from 'playwright-core';

declare global {
  /** The page's window, once mermaid.min.js is loaded. */
  interface Window {
    mermaid: Mermaid;
  }
}

export interface MermaidParse {
  ok: boolean;
  diagramType: string | null;
  error: string | null;
}

export interface MermaidRender {
  index: number;
  source: string;
  /** An SVG with a non-zero size took the block's place. */
  svg: boolean;
  /** The SVG's `aria-roledescription`: `gantt`, `xychart`, … */
  diagramType: string | null;
  /** `rect` elements drawn: bars, tasks, backgrounds. */
  marks: number;
  error: string | null;
}

export interface LegendEntry {
  text: string;
  /** Drawn, and wholly inside its chart's picture. */
  inside: boolean;
}

export declare function openMermaidPage(browser: Browser): Promise<Page>;
export declare function showComment(page: Page, markdown: string, options?: { openDetails?: boolean }): Promise<void>;
export declare function openCommentPage(browser: Browser, markdown: string, options?: { openDetails?: boolean }): Promise<Page>;
export declare function parseMermaid(page: Page, text: string): Promise<MermaidParse>;
export declare function renderMermaidBlocks(page: Page): Promise<MermaidRender[]>;
export declare function xychartLegends(page: Page): Promise<LegendEntry[][]>;
