#!/usr/bin/env node
// Renders the demo's PR comment in headless Chromium as GitHub would (markdown, then mermaid)
// and saves screenshots to artifacts/, to look at after changing the report.
//   npm run render-demo                          the demo only
//   npm run render-demo -- --scenario batching   also a measured lever scenario (repeatable)
//   npm run render-demo -- --scenarios           also every measured lever scenario
//   npm run render-demo -- --first-screens       the four reviews BENCHMARKS.md measures, their
//                                                first screens and the folded demo saved to docs/
// Scenarios come from test/report/measured-scenarios.ts, built from telemetry fixtures, and
// test/report/scenarios.ts (files-only, insufficient-evidence).
// For each comment it prints its height as GitHub folds it at 1000 px wide and where each fact
// of the first screen ends (test/helpers/browser/first-screen.mjs).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/helpers/browser/chromium.mjs';
import { openCommentPage, renderMermaidBlocks } from '../test/helpers/browser/comment-page.mjs';
import { FIRST_SCREEN_POINTS, openWindowPage, showFolded, WINDOW } from '../test/helpers/browser/first-screen.mjs';

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
const published = args.includes('--first-screens') ? ['files-only', 'insufficient-evidence', 'cheaper-model'] : [];
const scenarios = [...new Set([...listed, ...every, ...published])];
const docs = join(root, 'docs/images');

const comments = [['demo', execFileSync(process.execPath, [join(root, 'bin/gpu-justify.js'), 'demo'], { cwd: root, encoding: 'utf8' })]];
for (const name of scenarios) comments.push([name, execFileSync(tsx, [printer, name], { cwd: root, encoding: 'utf8' })]);
mkdirSync(out, { recursive: true });

const browser = await launchChromium();
let failed = 0;
try {
  const folded = await openWindowPage(browser);
  for (const [name, markdown] of comments) {
    const { height, points } = await showFolded(folded, markdown);
    const facts = FIRST_SCREEN_POINTS.map((p) => `${p} ${points[p] ?? 'missing'}`).join(', ');
    const within = FIRST_SCREEN_POINTS.every((p) => points[p] !== null && points[p] <= WINDOW.height);
    process.stdout.write(`${name} folded: ${height} px tall; first screen ${within ? 'holds' : 'LACKS'} all six (${facts})\n`);
    await folded.screenshot({ path: join(out, `${name}-folded.png`), fullPage: true });
    await folded.screenshot({ path: join(out, `${name}-first-screen.png`), clip: { x: 0, y: 0, ...WINDOW } });
    if (published.length > 0) {
      mkdirSync(docs, { recursive: true });
      if (name === 'demo') await folded.screenshot({ path: join(docs, 'demo-comment.png'), fullPage: true });
      await folded.screenshot({ path: join(docs, `first-screen-${name}.png`), clip: { x: 0, y: 0, ...WINDOW } });
    }
  }
  await folded.close();
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
