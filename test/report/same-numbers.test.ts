import { describe, expect, it } from 'vitest';
import { demoReview } from '../../src/cli/commands/demo.js';
import { renderCheck } from '../../src/report/check.js';
import { renderComment } from '../../src/report/comment.js';
import { reviewJson } from '../../src/report/json.js';
import { LEVER_SCENARIOS } from './measured-scenarios.js';
import { SCENARIOS } from './scenarios.js';

/** The rows of the first screen's table, as numbers (`—` as null, `+6` as 6). */
function screenTable(comment: string): Record<string, (number | null)[]> {
  const table = /^\| GPUs in .+\n\| -.+\n((?:\|.+\n)+)/m.exec(comment)?.[1] ?? '';
  const rows = table
    .trim()
    .split('\n')
    .map((row) =>
      row
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  const value = (c: string) => (c === '—' ? null : Number(c.replace(/ \+ \d+ borrowed$/, '')));
  // The peak row is named for what it is: use, or (above the capacity there) demand.
  const name = (label: string) => (label.startsWith('Peak') ? 'Peak' : label);
  return Object.fromEntries(rows.map(([label = '', ...cells]) => [name(label), cells.map(value)]));
}

describe('one set of numbers on every surface', () => {
  it.each([
    ['the demo', demoReview],
    ['a files-only review', SCENARIOS['partially-justified']],
    ['a cheaper-model review', async () => LEVER_SCENARIOS['cheaper-model']()],
    ['a borrow-quota review', async () => LEVER_SCENARIOS['borrow-quota']()],
  ])('%s: the comment, the check summary and the JSON agree', async (_, make) => {
    const result = await make();
    const comment = renderComment(result);
    const check = renderCheck(result);
    const json = reviewJson(result).reviews.find((r) => r.name === result.reviews.find((x) => x.change.delta > 0)?.change.name);
    const s = json?.screen;
    expect(s).toBeDefined();
    const row = (r: { today: number | null; thisPr: number | null; recommended: number | null } | undefined) => [
      r?.today,
      r?.thisPr,
      r?.recommended,
    ];
    expect(screenTable(comment)).toEqual({
      Capacity: row(s?.capacity),
      Peak: row(s?.peakInUse),
      'Need with headroom': row(s?.needWithHeadroom),
      'GPUs to add': row(s?.gpusToAdd),
    });
    expect(screenTable(check.summary)).toEqual(screenTable(comment));
    // The check's title and its annotation say the same GPUs to add.
    const add = s?.gpusToAdd.recommended;
    const added = add === null || add === undefined ? 'unknown' : add > 0 ? `+${add}` : String(add);
    expect(check.title).toContain(`, ${added} to add`);
    expect(check.annotations[0]?.title).toContain(`, ${added} to add`);
  });
});
