// Debian's Chromium, driven by playwright-core: the browser is the system's, never downloaded.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM_PATH = '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Starts headless Chromium, or says how to install it when it is missing. */
export async function launchChromium() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Install it with ` +
        '`apt-get update && apt-get install -y --no-install-recommends chromium` (.ci/run does this in CI).',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}
