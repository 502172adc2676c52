import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER, MAX_COMMENT, renderComment } from '../../src/report/comment.js';
import { usageProfile } from '../../src/analysis/stagger/check.js';
import { hourlyPeaks } from '../../src/report/demand.js';
import { todaySchedule } from '../../src/report/schedule.js';
import { evilReview, mermaidBlocks } from './comments.js';
import { catalog, queueFile, review, SCENARIOS } from './scenarios.js';
import { missingWords } from '../../src/report/missing-words.js';

function headlineOf(body: string): string {
  return body.split('\n').find((l) => l.startsWith('### ')) ?? '';
}

describe('renderComment', () => {
  it.each(Object.entries(SCENARIOS))('renders a %s review', async (verdict, scenario) => {
    const result = await scenario();
    expect(result.verdict).toBe(verdict);
    const body = renderComment(result, { headUrl: 'https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567' });
    expect(body.startsWith(COMMENT_MARKER)).toBe(true);
    expect(body).toMatchSnapshot();
  });

  it('puts the verdict, the request and the lever in the first line', async () => {
    const body = renderComment(await SCENARIOS['not-justified']());
    const first = body.split('\n').filter((l) => l !== '')[1] ?? '';
    expect(first).toBe(headlineOf(body));
    expect(first).toContain('not justified');
    expect(first).toContain('+4 GPUs requested, 0 to add');
    expect(first).toMatch(/peak 4 GPUs instead of 8/);
  });

  it('draws today’s starts against the proposed ones in one gantt chart', async () => {
    const body = renderComment(await SCENARIOS['not-justified']());
    const gantt = mermaidBlocks(body).find((b) => b.startsWith('gantt\n')) ?? '';
    // Today: the four runs all at their window's opening; proposed: two at a time.
    expect(gantt.match(/^ {2}run \d · 2 GPUs :done, 2000-01-01 00:00, 120m$/gm)).toHaveLength(4);
    const proposed = [...gantt.matchAll(/^ {2}run \d · 2 GPUs :active, 2000-01-01 (\d\d:\d\d), 120m$/gm)].map((m) => m[1]);
    expect(proposed).toHaveLength(4);
    expect(proposed).toEqual(['00:00', '00:00', '02:00', '04:00']);
    expect(gantt).toContain('section Today · nightly-eval');
    expect(gantt).toContain('section Proposed · nightly-eval');
    // Four in the schedule's table; on the first screen one CronJob per distinct start, since one
    // CronJob cannot move "run 3" alone: runs that start together stay one.
    expect(body.match(/schedule: "\d+ \d+ \* \* \*"/g)).toHaveLength(7);
    expect(body).toContain(
      '  - nightly-eval runs 4 times a day; one CronJob has one schedule, so split it into 3 CronJobs: ' +
        '`schedule: "0 0 * * *"` (2 runs); `schedule: "0 2 * * *"`; `schedule: "0 4 * * *"`\n',
    );
    expect(body).not.toMatch(/nightly-eval run \d:/);
    // The same facts in text, for readers who cannot see the chart.
    expect(body).toContain(
      'Today every run starts as its window opens and they peak at 8 GPUs (from 00:00); with the proposed starts the 4 runs peak at 4 GPUs',
    );
  });

  it('draws demand over the day as named lines: in use today and proposed, capacity before and after, the need', async () => {
    const body = renderComment(await SCENARIOS['not-justified']());
    const chart = mermaidBlocks(body).find((b) => b.includes('xychart-beta')) ?? '';
    const flat = (n: number) => `[${Array<number>(24).fill(n).join(', ')}]`;
    expect(chart.split('\n').filter((l) => /^ {2}(line|bar) /.test(l))).toEqual([
      `  line "Capacity before (4)" ${flat(4)}`,
      `  line "Capacity after (8)" ${flat(8)}`,
      `  line "Need (4)" ${flat(4)}`,
      `  line "In use today" [${[8, 8, ...Array<number>(22).fill(0)].join(', ')}]`,
      `  line "In use, proposed" [${[4, 4, 2, 2, 2, 2, ...Array<number>(18).fill(0)].join(', ')}]`,
    ]);
    // Mermaid draws its legend from the names where it can; the key under the chart names the same lines by colour.
    expect(chart).toContain('"showLegend": true');
    expect(chart).toContain('"plotColorPalette": "#6e7781, #cf222e, #8250df, #bc4c00, #0969da"');
    expect(body).toContain(
      "Key: grey: capacity before (4) · red: capacity after (8) · purple: the need with headroom (4) · orange: GPUs in use with today's starts · " +
        'blue: GPUs in use with the proposed starts. Each point is the busiest moment of its hour.',
    );
    expect(body).toContain(
      "Capacity is 4 GPUs before this pull request and 8 after. With the proposed starts at most 4 GPUs are in use (00:00–02:00), within the 4 there before; with today's starts at most 8 GPUs are in use (00:00–02:00), over the 4 there before during 00:00–02:00.",
    );
    expect(body).toContain('| 00:00–02:00 | 4                     | 8                  |');
  });

  it('says the cost under the headline and adds a Δ USD/month column when the change is priced', async () => {
    const result = await SCENARIOS['not-justified']();
    const priced = { ...result, changes: result.changes.map((c) => ({ ...c, usdPerGpuHour: 2.5, usdPerMonthDelta: 7300 })) };
    const body = renderComment(priced);
    expect(headlineOf(body)).toContain('+4 GPUs requested, 0 to add. **Instead:** Stagger the 4 runs');
    expect(body).toContain(`${headlineOf(body)}\n\n**This PR asks:** \`research\` (Kueue ClusterQueue): 4 → 8 GPUs (+4), +$7,300/month.`);
    expect(body).toMatch(/\| Δ GPUs \| Δ USD\/month \|/);
    expect(body).toContain('| +4     | +$7,300     |');
    // Several growing changes: each priced, and their sum.
    const [first] = priced.changes;
    if (!first) throw new Error('no change');
    const two = renderComment({ ...priced, changes: [first, { ...first, name: 'training', line: 30 }] });
    expect(two).toContain(
      '**This PR asks:** `research` (Kueue ClusterQueue): 4 → 8 GPUs (+4), +$7,300/month; `training` (Kueue ClusterQueue): 4 → 8 GPUs (+4), +$7,300/month; in all +$14,600/month.',
    );
    // Unpriced changes say nothing about money rather than guess.
    expect(renderComment(result)).not.toContain('USD');
  });

  it('backs a justified increase with the bound that no lever can beat', async () => {
    const body = renderComment(await SCENARIOS.justified());
    expect(headlineOf(body)).toBe(
      '### ✅ **GPU increase justified**: +4 GPUs requested, +4 to add; no lever reaches: no schedule meeting every deadline uses fewer than 8 GPUs (wherever tight (4 GPUs) runs, other runs that cannot move out of that time already hold 4 GPUs: at least 8 GPUs).',
    );
  });

  it('keeps today’s peak equal to the planner’s naive peak', async () => {
    for (const scenario of Object.values(SCENARIOS)) {
      for (const r of (await scenario()).reviews) {
        if (!r.plan || r.plan.schedule.length === 0) continue;
        const today = todaySchedule(r.plan.schedule);
        expect(today && usageProfile(today).peakGpus).toBe(r.plan.naivePeakGpus);
        expect(Math.max(...hourlyPeaks(r.plan.schedule))).toBe(r.plan.peakGpus);
      }
    }
  });

  it('says what to do, and the mode with the override while the check does not pass', async () => {
    const body = renderComment(await SCENARIOS['not-justified']());
    expect(body).toContain('- Keep research at 4 GPUs in `q.yaml:12`: drop the +4.');
    expect(body).toContain(
      '**Mode: advise**: the check is neutral and does not block merging. To override, a reviewer with maintain permission or higher other than the author comments `/gpu-justify override <reason>`.',
    );
    const justified = renderComment(await SCENARIOS.justified());
    expect(justified).not.toContain('override');
    // A justified increase in enforce mode passes; nothing may say the check fails.
    expect(justified).toContain('**Mode: enforce**: the check passes.');
    expect(justified).not.toMatch(/check (fails|is neutral)/);
    const missing = renderComment(await SCENARIOS['insufficient-evidence']());
    expect(missing).toContain('**Do this** so it can be judged:\n\n- Add a workload catalog (gpu-workloads.yaml): add gpu-workloads.yaml');
    expect(missing).toContain('<details>\n<summary>Missing evidence (1)</summary>\n\n- [ ] **a workload catalog');
    expect(missing).toContain('· sources: infra `q.yaml` · base base → head head · head `0123456789ab`</sub>');
  });

  it('names CLI flags only in the CLI markdown, and PR commands only on the pull request', async () => {
    for (const scenario of Object.values(SCENARIOS)) {
      const result = await scenario();
      const pr = renderComment(result);
      const cli = renderComment(result, { surface: 'cli' });
      expect(pr).not.toMatch(/--prometheus|--fail-on|--format/);
      expect(cli).not.toMatch(/\/gpu-justify( |`)/);
      if (result.verdict !== 'no-gpu-change') expect(cli).toContain('`--format json`');
    }
    const files = await SCENARIOS['not-justified']();
    expect(renderComment(files)).toContain('set `PROMETHEUS_URL` where gpu-justify runs');
    expect(renderComment(files, { surface: 'cli' })).toContain('pass `--prometheus <url>`');
    expect(renderComment(files, { surface: 'cli' })).toContain('`gpu-justify review` exits 0 unless `--fail-on` is given');
  });

  it('escapes names that carry markdown or HTML, in tables, summaries and charts', async () => {
    const body = renderComment(await evilReview());
    expect(body).not.toContain('<img');
    expect(body).not.toContain('onerror=alert(1)>|');
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;\\|b');
    // Every table row keeps its column count: no `|` from a name splits a cell.
    for (const table of body.split('\n\n').filter((p) => p.startsWith('| '))) {
      const cells = table.split('\n').map((row) => row.replace(/\\\|/g, '').split('|').length);
      expect(new Set(cells).size).toBe(1);
    }
    // In mermaid the name loses the characters mermaid reads as syntax.
    for (const block of mermaidBlocks(body)) {
      const names = block.split('\n').filter((l) => l.startsWith('  section '));
      for (const line of names) expect(line).not.toMatch(/[<>:;#%|"`]/);
    }
    expect(body).toContain('section Today · img src=x onerror=alert 1 b c d e init …');
  });

  it('shortens very long names', async () => {
    const long = 'w'.repeat(300);
    const body = renderComment(
      await review(
        { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog(long) },
        { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog(long) },
      ),
    );
    expect(body).not.toContain('w'.repeat(81));
    expect(body).toContain(`${'w'.repeat(79)}…`);
    expect(body).toContain(`section Today · ${'w'.repeat(39)}…`);
  });

  it('stays within GitHub’s comment limit with a very large PR', async () => {
    const base: Record<string, string> = { 'gpu-workloads.yaml': catalog() };
    const head: Record<string, string> = { 'gpu-workloads.yaml': catalog() };
    for (let i = 0; i < 400; i++) {
      base[`queues/${'x'.repeat(150)}-${i}.yaml`] = queueFile(1, `q-${'y'.repeat(200)}-${i}`);
      head[`queues/${'x'.repeat(150)}-${i}.yaml`] = queueFile(2, `q-${'y'.repeat(200)}-${i}`);
    }
    const body = renderComment(await review(base, head));
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT);
    expect(body).toMatch(/more changes not shown/);
  });

  it('shows a malformed file as a diagnostic with its line, and reaches no confident verdict', async () => {
    const result = await review(
      { 'q.yaml': queueFile(4), 'bad.yaml': queueFile(2, 'other'), 'gpu-workloads.yaml': catalog() },
      {
        'q.yaml': queueFile(8),
        'bad.yaml': 'kind: ClusterQueue\napiVersion: kueue.x-k8s.io/v1beta2\nspec: [unclosed\n',
        'gpu-workloads.yaml': catalog(),
      },
      { headroom: 0 },
    );
    expect(result.diagnostics.some((d) => d.file === 'bad.yaml' && d.line !== null && d.severity === 'error')).toBe(true);
    // The unreadable file might hide a GPU change, so no confident verdict.
    expect(result.verdict).toBe('insufficient-evidence');
    expect(result.gpusNeeded).toBeNull();
    expect(missingWords(result.missingEvidence[0]!).what).toBe('a readable bad.yaml');
    const body = renderComment(result);
    expect(body).toMatch(/`bad\.yaml:\d+`/);
  });
});

describe('a cut below the documented need', () => {
  it('is flagged in the headline though it asks for nothing', async () => {
    // Four 2-GPU, 2-hour runs in a 6-hour window need 4 GPUs at best; the PR cuts the queue to 2.
    const cut = await review(
      { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog() },
      { 'q.yaml': queueFile(2), 'gpu-workloads.yaml': catalog() },
      { headroom: 0 },
    );
    expect(cut.verdict).toBe('justified');
    const top = renderComment(cut)
      .split('\n')
      .find((l) => l.startsWith('### '));
    expect(top).toBe(
      '### ⚠️ **GPU capacity lowered**: nothing to justify, but the cut is below the need. ⚠️ research drops to 2 GPUs, under the 4 its documented workloads need.',
    );
    // A cut the need still fits reads as before.
    const fine = await review(
      { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog() },
      { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog() },
      { headroom: 0 },
    );
    expect(
      renderComment(fine)
        .split('\n')
        .find((l) => l.startsWith('### ')),
    ).toBe('### ✅ **GPU capacity lowered**: nothing to justify.');
  });
});
