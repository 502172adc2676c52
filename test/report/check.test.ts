import { describe, expect, it } from 'vitest';
import { renderCheck, renderFailedCheck } from '../../src/report/check.js';
import { SCENARIOS } from './scenarios.js';

describe('renderCheck', () => {
  it.each([
    ['not-justified', 'neutral'],
    ['partially-justified', 'neutral'],
    ['justified', 'success'],
    ['insufficient-evidence', 'neutral'],
    ['no-gpu-change', 'success'],
  ] as const)('concludes a %s review in advise mode as %s', async (verdict, conclusion) => {
    const result = await SCENARIOS[verdict]();
    expect(renderCheck({ ...result, context: { ...result.context, mode: 'advise' } }).conclusion).toBe(conclusion);
  });

  it('fails a not-justified review in enforce mode and annotates the quota line', async () => {
    const result = await SCENARIOS['not-justified']();
    const check = renderCheck({ ...result, context: { ...result.context, mode: 'enforce' } });
    expect(check.conclusion).toBe('failure');
    expect(check.title).toBe('GPU increase not justified: +4 requested, 0 needed (stagger)');
    expect(check.annotations).toEqual([
      expect.objectContaining({ path: 'q.yaml', start_line: 12, end_line: 12, annotation_level: 'failure' }),
    ]);
  });

  it('says the review could not run without claiming a verdict', () => {
    const check = renderFailedCheck('Prometheus unreachable');
    expect(check.conclusion).toBe('neutral');
    expect(check.summary).toContain('Prometheus unreachable');
    expect(check.summary).toContain('No verdict');
  });
});
