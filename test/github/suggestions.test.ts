import { describe, expect, it } from 'vitest';
import type { ChangeReview, ReviewResult } from '../../src/domain/review.js';
import { planSuggestions, rewriteValue, SUGGESTION_MARKER } from '../../src/github/publish/suggestions.js';
import { queueChange } from '../factories.js';
import { memoryChangeSet } from '../memory-change-set.js';
import { clusterQueue, QUEUE_FILE } from './scenarios.js';

describe('rewriteValue', () => {
  it.each([
    ['              nominalQuota: 12', '              nominalQuota: 8'],
    ['  nominalQuota: "12"', '  nominalQuota: "8"'],
    ["  nominalQuota: '12'  # raised for Q3", "  nominalQuota: '8'  # raised for Q3"],
    ['  desired_size = 12', '  desired_size = 8'],
    ['    "nvidia.com/gpu": 12,', '    "nvidia.com/gpu": 8,'],
  ])('%j becomes %j', (line, expected) => {
    expect(rewriteValue(line, 12, 8)).toBe(expected);
  });

  it.each([
    ['a different number', '  nominalQuota: 16'],
    ['a quantity with a unit', '  memory: 12Gi'],
    ['no value', '  - name: nvidia.com/gpu'],
    ['a number in the key only', '  a12: x'],
    ['mismatched quotes', `  nominalQuota: "12'`],
  ])('leaves %s alone', (_what, line) => {
    expect(rewriteValue(line, 12, 8)).toBeNull();
  });
});

function review(over: Partial<ChangeReview>): ChangeReview {
  return {
    change: queueChange('research', 6, 12, { file: QUEUE_FILE, line: 17 }),
    verdict: 'partially-justified',
    need: 8,
    gpusNeeded: 2,
    workloads: [],
    findings: [],
    missingEvidence: [],
    reason: { code: 'no-linked-workloads', catalogFile: 'gpu-workloads.yaml' },
    evidence: [],
    ...over,
  };
}

function plan(reviews: ChangeReview[], headText = clusterQueue(12)) {
  const changes = memoryChangeSet({}, { [QUEUE_FILE]: headText });
  return planSuggestions({ reviews } as unknown as ReviewResult, changes.head);
}

describe('planSuggestions', () => {
  it('suggests the quota that meets the need on the changed line', async () => {
    const [s, ...rest] = await plan([review({})]);
    expect(rest).toEqual([]);
    expect(s).toMatchObject({ path: QUEUE_FILE, line: 17 });
    expect(s?.body.startsWith(SUGGESTION_MARKER)).toBe(true);
    expect(s?.body).toContain('```suggestion\n              nominalQuota: 8\n```');
  });

  it('suggests nothing when the request is justified, unknown, or the line holds another number', async () => {
    expect(await plan([review({ verdict: 'justified' })])).toEqual([]);
    expect(await plan([review({ gpusNeeded: null })])).toEqual([]);
    expect(await plan([review({ gpusNeeded: 6 })])).toEqual([]);
    // The declared total is split over two flavors: the line's 12 is not the whole.
    expect(await plan([review({ change: queueChange('research', 6, 20, { file: QUEUE_FILE, line: 17 }) })])).toEqual([]);
    expect(await plan([review({ change: queueChange('research', 6, 12, { file: QUEUE_FILE, line: 15 }) })])).toEqual([]);
  });
});
