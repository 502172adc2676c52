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
    expect(check.title).toBe('GPU increase not justified: +4 requested, 0 to add (stagger) · blocks merging');
    expect(check.annotations).toEqual([
      expect.objectContaining({ path: 'q.yaml', start_line: 12, end_line: 12, annotation_level: 'failure' }),
    ]);
    // The annotation alone says what to write on the line.
    expect(check.annotations[0]?.message).toMatch(/\. Keep 4 GPUs here \(0 to add\); the check's summary has the change to make\.$/);
    const partly = renderCheck(await SCENARIOS['partially-justified']());
    expect(partly.annotations[0]?.message).toContain('Ask for 5 GPUs here (+1 to add), not 8;');
  });

  it('says the review could not run without claiming a verdict, neutral only in advise mode', () => {
    const check = renderFailedCheck('Prometheus unreachable', 'advise');
    expect(check.conclusion).toBe('neutral');
    expect(check.summary).toContain('Prometheus unreachable');
    expect(check.summary).toContain('No verdict');
    // A required check must not pass on a review that never ran, nor when the mode is unknown.
    expect(renderFailedCheck('Prometheus unreachable', 'enforce').conclusion).toBe('failure');
    expect(renderFailedCheck('Prometheus unreachable', null).conclusion).toBe('failure');
  });

  it.each(['not-justified', 'partially-justified', 'insufficient-evidence'] as const)(
    'fails a %s review in enforce mode, saying how to pass and how to override',
    async (verdict) => {
      const result = await SCENARIOS[verdict]();
      const check = renderCheck({ ...result, context: { ...result.context, mode: 'enforce' } });
      expect(check.conclusion).toBe('failure');
      expect(check.summary).toContain('To pass this check');
      expect(check.summary).toContain('/gpu-justify override <reason>');
      if (verdict === 'insufficient-evidence') expect(check.summary).toContain('Missing ');
    },
  );

  it('fails closed on an invalid policy when the PR may add GPUs, listing its errors first', async () => {
    const result = await SCENARIOS['justified']();
    const policyErrors = [
      { file: '.github/gpu-justify.yml', line: 1, severity: 'error' as const, message: 'mode: must be one of advise, enforce' },
    ];
    const check = renderCheck({ ...result, context: { ...result.context, mode: 'enforce', policyErrors } });
    expect(result.gpusRequested).toBeGreaterThan(0);
    expect(check.conclusion).toBe('failure');
    // The fix first: which file, on which branch, and that the pull request's own copy is not read.
    expect(check.summary.startsWith('**The gpu-justify policy is invalid: fix `.github/gpu-justify.yml` on the base branch**')).toBe(true);
    expect(check.summary).toContain("this pull request's copy is not read");
    expect(check.summary).toContain('`.github/gpu-justify.yml:1`');
    const named = renderCheck({ ...result, context: { ...result.context, mode: 'enforce', policyErrors, baseBranch: 'release/2.x' } });
    expect(named.summary.startsWith('**The gpu-justify policy is invalid: fix `.github/gpu-justify.yml` on `release/2.x`**')).toBe(true);
    // A file it extends is fixed in its own repository.
    const extended = [{ ...policyErrors[0], file: 'acme/.github:gpu-justify.yml' }] as typeof policyErrors;
    expect(renderCheck({ ...result, context: { ...result.context, mode: 'enforce', policyErrors: extended } }).summary).toMatch(
      /^\*\*The gpu-justify policy is invalid: fix `acme\/\.github:gpu-justify\.yml` on its default branch\*\*/,
    );
    const none = await SCENARIOS['no-gpu-change']();
    expect(renderCheck({ ...none, context: { ...none.context, mode: 'enforce', policyErrors } }).conclusion).toBe('success');
  });
});
