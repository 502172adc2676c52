import type { Browser } from 'playwright-core';

export declare const CHROMIUM_PATH: string;
/** Starts headless Chromium, or says how to install it when it is missing. */
export declare function launchChromium(): Promise<Browser>;
