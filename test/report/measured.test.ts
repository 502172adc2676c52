import { describe, expect, it } from 'vitest';
import type { Finding, ReviewResult } from '../../src/domain/index.js';
import { renderCheck } from '../../src/report/check.js';
import { MAX_COMMENT, renderComment } from '../../src/report/comment.js';
import { headline, instead } from '../../src/report/headline.js';
import { measuredLadders } from '../../src/report/ladder.js';
import { missingEvidenceList } from '../../src/report/missing.js';
import { evilMeasured, mermaidBlocks } from './comments.js';
import { LEVER_SCENARIOS, manyMeasured } from './measured-scenarios.js';

/** The body of the `<details>` whose summary starts with `title`. */
function section(body: string, title: string): string {
  const start = body.indexOf(`<summary>${title}`);
  expect(start, `no section ${title}`).toBeGreaterThan(-1);
  return body.slice(start, body.indexOf('</details>', start));
}

/** The table row whose first cell is `first`, as trimmed cells. */
function rowOf(markdown: string, first: string): string[] {
  const line = markdown.split('\n').find((l) => l.startsWith(`| ${first} `)) ?? '';
  return line
    .replace(/\\\|/g, '¦')
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

function tablesKeepTheirColumns(body: string): void {
  for (const table of body.split('\n\n').filter((p) => p.startsWith('| '))) {
    const cells = table.split('\n').map((row) => row.replace(/\\\|/g, '').split('|').length);
    expect(new Set(cells).size, table.slice(0, 200)).toBe(1);
  }
}

const finding = (lever: Finding['lever'], gpusFreed: number, meetsNeed = false): Finding => ({
  lever,
  gpusFreed,
  meetsNeed,
  // A long sentence: the headline shortens it to the lever's own words.
  detail: {
    code: 'runtime-off',
    tolerance: 0.25,
    jobs: [{ workload: `${lever} ${'x'.repeat(200)}`, documentedMinutes: 60, observedMinutes: 90 }],
  },
  evidence: [],
});

describe('the comment with measured evidence', () => {
  it.each(Object.entries(LEVER_SCENARIOS))('renders the %s scenario', (_, scenario) => {
    const body = renderComment(scenario());
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT);
    tablesKeepTheirColumns(body);
    expect(body).toMatchSnapshot();
  });

  it('names the lever that meets the need on the top line, shortened when its summary is long', () => {
    const borrow = LEVER_SCENARIOS['borrow-quota']();
    expect(borrow.findings.find((f) => f.lever === 'borrow-quota')?.meetsNeed).toBe(true);
    expect(headline(borrow)).toBe(
      '⛔ **GPU increase not justified**: +4 GPUs requested, 0 to add. **Instead:** borrow 2 unused GPUs from the cohort.',
    );
    expect(headline(LEVER_SCENARIOS.batching())).toContain('**Instead:** batch more per replica (frees 2 GPUs).');
    // Batching frees 2 and the smaller model 3 of the same GPUs: the one that meets the need leads.
    expect(headline(LEVER_SCENARIOS['cheaper-model']())).toContain('**Instead:** switch to a cheaper model (frees 3 GPUs).');
    const reclaim = headline(LEVER_SCENARIOS['reclaim-idle']());
    expect(reclaim).toContain('+1 to add. **Instead:** ask for +1; idle allocations in training: train (2 GPUs, busy 25%)');
    for (const scenario of Object.values(LEVER_SCENARIOS)) expect(headline(scenario())).not.toContain('\n');
  });

  it('combines levers when none meets the need alone, counting levers on the same GPUs once', () => {
    expect(instead([finding('reclaim-idle', 2), finding('stagger', 4), finding('stagger', 0)])).toBe(
      'stagger the runs (4 fewer GPUs to add) + reclaim 2 idle GPUs',
    );
    expect(instead([finding('batching', 2), finding('cheaper-model', 3), finding('borrow-quota', 1)])).toBe(
      'switch to a cheaper model (frees 3 GPUs) + borrow 1 unused GPUs from the cohort',
    );
    expect(instead([finding('stagger', 0)])).toBeNull();
    expect(instead([finding('stagger', 1), finding('reclaim-idle', 2, true)])).toBe('reclaim 2 idle GPUs');
  });

  it('tabulates the ladder with the compute metric, the productive rung and the flags', () => {
    const body = renderComment(LEVER_SCENARIOS['reclaim-idle']());
    const ladder = section(body, 'Utilisation ladder of training');
    expect(ladder).toContain('<summary>Utilisation ladder of training: busy 34% of 112 allocated GPU-hours, 2 flagged</summary>');
    const train = rowOf(ladder, 'workload');
    expect(train.slice(0, 7)).toEqual(['workload', 'train', '96', '25% (24)', '10% (9.6)', '2% (1.92)', 'GR engine']);
    expect(train[8]).toBe('**idle**, **memory-bound**');
    // Why each flag was raised, above the table that only names them.
    expect(ladder).toContain(
      '- workload **train**:\n' +
        "  - **idle**: workload train was busy 25% of its 96 allocated GPU-hours, under the policy's idleBelow (35%)\n" +
        '  - **memory-bound**: workload train is memory-bound',
    );
    const productive = rowOf(section(renderComment(LEVER_SCENARIOS['borrow-quota']()), 'Utilisation ladder'), 'workload');
    expect(productive.slice(3, 8)).toEqual(['80% (38.4)', '60% (28.8)', '30% (14.4)', 'SM', '0.125 (6 verified)']);
  });

  it('writes the ladder only when there is one, and draws no chart of it', () => {
    const body = renderComment(LEVER_SCENARIOS['reclaim-idle']());
    expect(section(body, 'Utilisation ladder')).not.toContain('```mermaid');
    expect(mermaidBlocks(body)).toHaveLength(2);
    const offline = renderComment({
      ...LEVER_SCENARIOS['reclaim-idle'](),
      reviews: LEVER_SCENARIOS['reclaim-idle']().reviews.map(({ ladders: _, ...r }) => r),
    });
    expect(offline).not.toContain('Utilisation ladder');
    expect(mermaidBlocks(offline)).toHaveLength(2);
  });

  it('sizes services from the load-test row and says what holds them back', () => {
    const serving = section(renderComment(LEVER_SCENARIOS.batching()), 'Serving capacity in gpu-l4');
    expect(serving).toContain('<summary>Serving capacity in gpu-l4: need with headroom 2 GPUs at the observed peak, 4 declared</summary>');
    const row = rowOf(serving, 'support-chat');
    expect(row.slice(0, 6)).toEqual([
      'support-chat',
      '4.44 req/s (`constant at 4.5/s`)',
      '4 req/s',
      '20% → 4.8 req/s',
      '2 of 4 declared',
      '2 of 4 declared',
    ]);
    // Advice keeps its flags as code, not as escaped backticks.
    expect(row[6]).toMatch(/^\*\*batching\*\* .*raise `--max-num-seqs` \(and `--max-num-batched-tokens`\)/);
  });

  it('compares cost per verified outcome of the current model and each alternative', () => {
    const costs = section(renderComment(LEVER_SCENARIOS['cheaper-model']()), 'Cost per verified outcome');
    const rows = costs.split('\n').filter((l) => l.startsWith('| support-chat'));
    const cells = rows.map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
    expect(cells.map((c) => [c[1], c[2], c[5], c[6], c[7]])).toEqual([
      ['**current**', '4 × L4', '**$0.000272**', '—', '—'],
      ['chat-3b', '1 × L4', '**$0.0000724**', 'yes', '3'],
      ['chat-1b', '1 × L4', '**$0.0000911**', 'no', '3'],
    ]);
    expect(cells[2]?.[8]).toBe('quality 0.7 is under the threshold 0.85');
  });

  it('checks documented runtimes against observed ones, and annotates the catalog line', () => {
    const result = LEVER_SCENARIOS['borrow-quota']();
    const runtimes = section(renderComment(result), 'Runtimes in research');
    expect(rowOf(runtimes, 'nightly-eval')).toEqual(['nightly-eval', '4h', '6h', '+50%', '**update the catalog**']);
    const check = renderCheck(result);
    const line = Number(result.reviews[0]?.runtimes?.[0]?.evidence.find((e) => e.source === 'catalog')?.ref.split(':')[1]);
    expect(check.annotations).toContainEqual(
      expect.objectContaining({
        path: 'gpu-workloads.yaml',
        start_line: line,
        annotation_level: 'warning',
        title: 'nightly-eval: runtime 4h documented, 6h observed',
      }),
    );
  });

  it('shows confidence and the need without levers per change, and in the check', () => {
    const result = LEVER_SCENARIOS['reclaim-idle']();
    const why = section(renderComment(result), 'Why, per pool or queue');
    expect(why).toContain('| Need with headroom, no lever | Need with headroom, with levers |');
    expect(rowOf(why, 'training').slice(0, 6)).toEqual(['training', 'partially-justified', '8', '5', '1', 'high']);
    const check = renderCheck(result);
    expect(check.title).toBe('GPU increase partly justified: +2 requested, +1 to add (reclaim-idle) · advise mode, not blocking');
    expect(check.summary.split('\n')[0]).toBe(headline(result));
    expect(check.summary).toContain(
      '- `training` 4 → 6: partially-justified, need with headroom 5 GPUs (8 with no lever), +1 to add, confidence high; busy 34%, 2 flagged idle or memory-bound',
    );
    const partial = LEVER_SCENARIOS['partial-telemetry']();
    expect(renderComment(partial)).toContain(
      '⚠️ **Evidence: measured over 2 days of telemetry to 2026-01-03, confidence medium:** some telemetry is missing (the checklist below).',
    );
  });

  it('groups a long missing-evidence checklist by where each item is fixed', () => {
    const result = LEVER_SCENARIOS['partial-telemetry']();
    const list = missingEvidenceList(result.missingEvidence);
    const groups = [...list.matchAll(/^\*\*(.+)\*\* \((\d+)\)$/gm)].map((m) => [m[1], Number(m[2])]);
    expect(groups).toEqual([
      ['Workload catalog', 2],
      ['Telemetry: exporters and scrape settings', 4],
    ]);
    expect(list).toContain('- [ ] **a load test of chat**: add `loadTest: <path>` to chat in the catalog');
    expect(list).toContain(
      '**GPU utilisation of workload nightly-eval (DCGM\\_FI\\_DEV\\_GPU\\_UTIL): nothing**: run NVIDIA dcgm-exporter',
    );
    // Short lists stay flat.
    expect(missingEvidenceList(result.missingEvidence.slice(0, 3))).not.toContain('**Workload catalog**');
    // A name in a how's code span stays inert: code, not HTML.
    expect(missingEvidenceList([{ what: '<b>x</b>', how: 'add `name: <img src=x>` and <img src=y>' }])).toBe(
      '- [ ] **&lt;b&gt;x&lt;/b&gt;**: add `name: <img src=x>` and &lt;img src=y&gt;',
    );
  });

  it('escapes hostile names in the measured tables and the text', () => {
    const body = renderComment(evilMeasured());
    // Code spans (query refs in the footer) show their text as is; everywhere else no tag survives.
    expect(body.replace(/`[^`\n]*`/g, '')).not.toMatch(/<img|onerror=alert\(1\)>/);
    tablesKeepTheirColumns(body);
    // Every flagged name is bold in the text, trailing spaces or not: no asterisks left showing.
    const evil = evilMeasured();
    const flagged = renderComment({
      ...evil,
      reviews: evil.reviews.map((r) => ({
        ...r,
        ladders: r.ladders?.map((l) => ({
          ...l,
          flags: [{ kind: 'idle' as const, name: l.name, busyFraction: 0.01, allocatedGpuHours: 10, idleBelow: 0.05 }],
        })),
      })),
    });
    tablesKeepTheirColumns(flagged);
    const lines = flagged.split('\n').filter((l) => l.startsWith('- workload **'));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^- workload \*\*\S.*\S\*\*:/);
  });

  it('stays within GitHub’s limit with hundreds of measured workloads, saying what was cut', () => {
    const result: ReviewResult = manyMeasured(400, (i) => `job-${'w'.repeat(120)}-${i}`);
    // One per workload; the queue's own has no allocation measured here, so it is not drawn.
    const ladders = measuredLadders(result.reviews[0]?.ladders).length;
    expect(ladders).toBe(400);
    const body = renderComment(result);
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT);
    const ladder = section(body, 'Utilisation ladder');
    expect(ladder).toContain(`…and ${ladders - 50} more ladders not shown.`);
    expect(ladder).not.toContain('```mermaid');
  });
});
