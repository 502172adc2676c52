#!/usr/bin/env node
// Renders the demo's PR comment in headless Chromium as GitHub would (markdown, then mermaid)
// and saves screenshots to artifacts/, to look at after changing the report.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/helpers/browser/chromium.mjs';
import { openCommentPage, renderMermaidBlocks } from '../test/helpers/browser/comment-page.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'artifacts');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

// Build when dist/ is missing or older than the sources.
const built = (() => {
  try {
    return statSync(join(root, 'dist/cli/run.js')).mtimeMs;
  } catch {
    return 0;
  }
})();
if (built < newest(join(root, 'src'))) {
  process.stderr.write('render-demo: building dist/\n');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}

const markdown = execFileSync(process.execPath, [join(root, 'bin/gpu-justify.js'), 'demo'], { cwd: root, encoding: 'utf8' });
mkdirSync(out, { recursive: true });

const browser = await launchChromium();
let failed = 0;
try {
  const page = await openCommentPage(browser, markdown);
  const charts = await renderMermaidBlocks(page);
  await page.screenshot({ path: join(out, 'demo-comment.png'), fullPage: true });
  const holders = await page.$$('.mermaid-chart');
  for (const [i, chart] of charts.entries()) {
    const file = join(out, `demo-chart-${i + 1}-${chart.diagramType ?? 'unknown'}.png`);
    await holders[i]?.screenshot({ path: file });
    const status = chart.svg && chart.error === null ? 'ok' : `FAILED: ${chart.error ?? 'no SVG'}`;
    if (status !== 'ok') failed += 1;
    process.stdout.write(`chart ${i + 1} (${chart.diagramType ?? '?'}): ${status} → ${file}\n`);
  }
  process.stdout.write(`comment → ${join(out, 'demo-comment.png')}\n`);
} finally {
  await browser.close();
}
process.exit(failed > 0 ? 1 : 0);
