import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_CASES, falseAlarm, runCase, wanted } from './real-cases.js';
import { REAL_ROOT } from './real-fixtures.js';
import type { Outcome } from './real-cases.js';

/**
 * Pull requests on real public files (real-cases.ts): each ends as worked out by hand, and none
 * passes silently. `npm run detect:corpus -- --cases` prints the same cases as a table.
 */
describe('real files, edited as pull requests', () => {
  const outcomes: Outcome[] = [];
  for (const c of REAL_CASES) {
    it(c.id, async () => {
      const { outcome } = await runCase(c);
      outcomes.push(outcome);
      expect(outcome).toBe(wanted(c));
    });
  }

  it('no case is a silent miss or a wrong count, and no negative control a false alarm', () => {
    expect(outcomes).toHaveLength(REAL_CASES.length);
    expect(outcomes.filter((o) => o === 'silent-miss' || o === 'wrong')).toEqual([]);
    expect(REAL_CASES.filter((c, i) => falseAlarm(c, outcomes[i] ?? 'right')).map((c) => c.id)).toEqual([]);
  });

  it('covers at least 30 cases over real files of at least 10 repositories', () => {
    const rows = readFileSync(path.join(REAL_ROOT, 'SOURCES.md'), 'utf8')
      .split('\n')
      .map((l) => /^\| `([^`]+)` \| ([^ |]+) \|/.exec(l))
      .filter((m) => m !== null);
    const repos = new Set(REAL_CASES.flatMap((c) => rows.filter((m) => m[1]?.startsWith(c.target)).map((m) => m[2])));
    expect(REAL_CASES.length).toBeGreaterThanOrEqual(30);
    expect(repos.size).toBeGreaterThanOrEqual(10);
  });
});
