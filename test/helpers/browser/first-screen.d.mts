import type { Browser, Page } from 'playwright-core';

export declare const WINDOW: { width: number; height: number };
export type FirstScreenPoint = 'verdict' | 'asks' | 'numbers' | 'do-this' | 'evidence' | 'mode';
export declare const FIRST_SCREEN_POINTS: readonly FirstScreenPoint[];

export interface FoldedComment {
  /** The whole comment's height as GitHub folds it, px. */
  height: number;
  /** Where each fact ends, px from the comment's top; null when the comment lacks it. */
  points: Record<FirstScreenPoint, number | null>;
}

export declare function openWindowPage(browser: Browser): Promise<Page>;
export declare function showFolded(page: Page, markdown: string): Promise<FoldedComment>;
