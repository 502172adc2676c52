import type { Browser } from 'playwright-core';

/** Starts headless Chromium, or says how to install it when it is missing. */
export declare function launchChromium(): Promise<Browser>;
