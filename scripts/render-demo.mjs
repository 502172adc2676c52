#!/usr/bin/env node
// Renders the demo's PR comment in headless Chromium as GitHub would (markdown, then mermaid)
// and saves screenshots to artifacts/, to look at after changing the report.
//   npm run render-demo                          the demo only
//   npm run render-demo -- --scenario batching   also a measured lever scenario (repeatable)
//   npm run render-demo -- --scenarios           also every measured lever scenario
// Scenarios come from test/report/measured-scenarios.ts, built from telemetry fixtures.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/helpers/browser/chromium.mjs';
import { openCommentPage, renderMermaidBlocks } from '../test/helpers/browser/comment-page.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'artifacts');

/** @param {string} dir */
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

const args = process.argv.slice(2);
const tsx = join(root, 'node_modules/.bin/tsx');
const printer = join(root, 'test/report/print-scenario.ts');
const listed = args.flatMap((a, i) => (a === '--scenario' && args[i + 1] ? [args[i + 1]] : []));
const every = args.includes('--scenarios')
  ? ['borrow-quota', 'reclaim-idle', 'batching', 'cheaper-model', 'partial-telemetry', 'hostile-measured']
  : [];
const scenarios = [...new Set([...listed, ...every])];

const comments = [['demo', execFileSync(process.execPath, [join(root, 'bin/gpu-justify.js'), 'demo'], { cwd: root, encoding: 'utf8' })]];
for (const name of scenarios) comments.push([name, execFileSync(tsx, [printer, name], { cwd: root, encoding: 'utf8' })]);
mkdirSync(out, { recursive: true });

const browser = await launchChromium();
let failed = 0;
try {
  for (const [name, markdown] of comments) {
    const page = await openCommentPage(browser, markdown);
    const charts = await renderMermaidBlocks(page);
    const whole = join(out, `${name}-comment.png`);
    await page.screenshot({ path: whole, fullPage: true });
    const holders = await page.$$('.mermaid-chart');
    for (const [i, chart] of charts.entries()) {
      const file = join(out, `${name}-chart-${i + 1}-${chart.diagramType ?? 'unknown'}.png`);
      await holders[i]?.screenshot({ path: file });
      const status = chart.svg && chart.error === null ? 'ok' : `FAILED: ${chart.error ?? 'no SVG'}`;
      if (status !== 'ok') failed += 1;
      process.stdout.write(`${name} chart ${i + 1} (${chart.diagramType ?? '?'}): ${status} → ${file}\n`);
    }
    process.stdout.write(`${name} comment → ${whole}\n`);
    await page.close();
  }
} finally {
  await browser.close();
}
process.exit(failed > 0 ? 1 : 0);
