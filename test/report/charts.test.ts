import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/report/comment.js';
import { demandChart, demandLegend, type DemandInput } from '../../src/report/demand.js';
import { allComments, mermaidBlocks } from './comments.js';
import { LEVER_SCENARIOS } from './measured-scenarios.js';

/** A day with runs at 00–02 and 18–21 only: most hours have nothing in use. */
function day(overrides: Partial<DemandInput> = {}): DemandInput {
  const at = (busy: Record<number, number>) => Array.from({ length: 24 }, (_, h) => busy[h] ?? 0);
  return {
    proposed: at({ 0: 4, 1: 4, 2: 2, 18: 4, 19: 4, 20: 4 }),
    today: at({ 0: 8, 1: 8, 18: 4, 19: 4, 20: 4 }),
    before: 6,
    after: 12,
    need: 5,
    ...overrides,
  };
}

/** The plot statements of a chart: `line "name" [...]` or `bar ...`. */
const plots = (chart: string): string[] => chart.split('\n').filter((l) => /^ {2}(line|bar)\b/.test(l));
const names = (chart: string): string[] => plots(chart).map((l) => /^ {2}\w+ "([^"]*)"/.exec(l)?.[1] ?? '(unnamed)');
const palette = (chart: string): string[] => /"plotColorPalette": "([^"]*)"/.exec(chart)?.[1]?.split(', ') ?? [];

describe('the demand chart', () => {
  it('draws lines only, so an hour with nothing in use is a point on the axis rather than a stub of a bar', () => {
    const chart = demandChart(day());
    expect(plots(chart).length).toBeGreaterThan(0);
    expect(plots(chart).filter((l) => l.startsWith('  bar'))).toEqual([]);
    expect(plots(chart)[4]).toBe(`  line "In use, proposed" [4, 4, 2, ${Array<number>(15).fill(0).join(', ')}, 4, 4, 4, 0, 0, 0]`);
  });

  it('names every line, capacity and the need first, the GPUs in use over them, each with its own colour', () => {
    const chart = demandChart(day());
    expect(names(chart)).toEqual(['Capacity before (6)', 'Capacity after (12)', 'Need (5)', 'In use today', 'In use, proposed']);
    expect(plots(chart)[2]).toBe(`  line "Need (5)" [${Array<number>(24).fill(5).join(', ')}]`);
    expect(chart).toContain('"showLegend": true');
    expect(new Set(palette(chart)).size).toBe(plots(chart).length);
  });

  it('says in the key under the chart which colour is which line, in the chart’s order', () => {
    const d = day();
    const colours = { '#bc4c00': 'orange', '#0969da': 'blue', '#6e7781': 'grey', '#cf222e': 'red', '#8250df': 'purple' };
    const named = palette(demandChart(d)).map((c) => colours[c as keyof typeof colours]);
    const key = demandLegend(d);
    expect([...key.matchAll(/(\w+): /g)].map((m) => m[1]).slice(1)).toEqual(named);
    expect(key).toBe(
      "Key: grey: capacity before (6) · red: capacity after (12) · purple: the need with headroom (5) · orange: GPUs in use with today's starts · " +
        'blue: GPUs in use with the proposed starts. Each point is the busiest moment of its hour.',
    );
  });

  it('leaves out the need when it is unknown, and today’s line when it is the proposed one again', () => {
    const d = day({ need: null, today: day().proposed });
    const chart = demandChart(d);
    expect(names(chart)).toEqual(['Capacity before (6)', 'Capacity after (12)', 'In use, proposed']);
    expect(palette(chart)).toHaveLength(3);
    expect(demandLegend(d)).toBe(
      'Key: grey: capacity before (6) · red: capacity after (12) · blue: GPUs in use with the proposed starts. ' +
        "Each point is the busiest moment of its hour. Today's starts give the same line as the proposed ones.",
    );
    expect(names(demandChart(day({ today: null })))).toEqual([
      'Capacity before (6)',
      'Capacity after (12)',
      'Need (5)',
      'In use, proposed',
    ]);
  });

  it('keeps the need in view: the y-axis reaches above it when it tops every other line', () => {
    expect(demandChart(day({ need: 20 }))).toContain('y-axis "GPUs" 0 --> 21');
  });

  it('keeps the legend padding wide enough for a chart drawn narrower than its width', () => {
    const padding = (chart: string) => Number(/"legendPadding": (\d+)/.exec(chart)?.[1]);
    expect(padding(demandChart(day()))).toBe(53);
    expect(padding(demandChart({ ...day(), proposed: Array<number>(168).fill(1), today: null, cycle: 7 * 1440 }))).toBe(77);
  });
});

describe('the utilisation ladder', () => {
  it('is a table of shares with their GPU-hours, not a chart of bars drawn over one another', () => {
    const body = renderComment(LEVER_SCENARIOS['reclaim-idle']());
    const start = body.indexOf('<summary>Utilisation ladder');
    const ladder = body.slice(start, body.indexOf('</details>', start));
    expect(ladder).not.toContain('```mermaid');
    expect(ladder).toContain(
      '| Scope    | Name     | Allocated GPU-hours | Busy, % (GPU-hours) | Computing, % (GPU-hours) | Tensor, % (GPU-hours) | Compute metric |',
    );
    expect(ladder).toContain(
      '| workload | train    | 96                  | 25% (24)            | 10% (9.6)                | 2% (1.92)             | GR engine      |',
    );
    expect(ladder).toContain('each rung is part of the one before');
  });

  it('draws no chart anywhere from a ladder, in any comment', async () => {
    for (const [name, body] of await allComments()) {
      for (const block of mermaidBlocks(body)) expect(block, name).not.toContain('allocated GPU-hours');
    }
  });
});
