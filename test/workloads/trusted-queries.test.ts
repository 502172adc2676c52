import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { runReview } from '../../src/review/index.js';
import type { TelemetrySource } from '../../src/telemetry/source.js';
import { withTrustedQueries } from '../../src/workloads/trusted-queries.js';
import { batch } from '../factories.js';
import { memoryChangeSet } from '../memory-change-set.js';
import { catalog, queueFile } from '../report/scenarios.js';

const outcomes = (verified: string) => ({ verified, qualityThreshold: 0.9 });

describe('withTrustedQueries', () => {
  const base = [batch({ name: 'eval', outcomes: outcomes('sum(increase(ok_total[1d]))') })];

  it('keeps outcome queries the base branch already runs', () => {
    const { workloads, diagnostics } = withTrustedQueries(base, base, 'gpu-workloads.yaml');
    expect(workloads[0]?.outcomes?.verified).toBe('sum(increase(ok_total[1d]))');
    expect(diagnostics).toEqual([]);
  });

  it('runs the base branch’s queries when the pull request edits them', () => {
    const head = [batch({ name: 'eval', outcomes: outcomes('sum(secret_metric)') })];
    const { workloads, diagnostics } = withTrustedQueries(head, base, 'gpu-workloads.yaml');
    expect(workloads[0]?.outcomes?.verified).toBe('sum(increase(ok_total[1d]))');
    expect(diagnostics).toEqual([match.objectContaining({ severity: 'info', message: match.stringContaining('base branch') })]);
  });

  it('runs no outcome query that only the pull request declares', () => {
    const head = [batch({ name: 'new-job', outcomes: outcomes('sum(secret_metric)') })];
    const { workloads, diagnostics } = withTrustedQueries(head, base, 'gpu-workloads.yaml');
    expect(workloads[0]?.outcomes).toBeUndefined();
    expect(diagnostics[0]?.message).toMatch(/new in this pull request/);
  });
});

describe('a review with telemetry', () => {
  it('never sends the pull request’s own outcome PromQL to the operator’s Prometheus', async () => {
    const asked: string[] = [];
    const source: TelemetrySource = {
      description: 'recording',
      query: async (q, at, window) => {
        asked.push(q.promql);
        return {
          query: q,
          source: 'recording',
          at: at.toISOString(),
          windowMinutes: window,
          status: 'missing',
          reason: 'no-data',
          message: 'none',
        };
      },
    };
    const withOutcomes = (query: string) => `${catalog()}    selector:\n      namespace: eval\n    outcomes:\n      verified: ${query}\n`;
    const result = await runReview({
      changes: memoryChangeSet(
        { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': withOutcomes('sum(increase(eval_runs_total[1d]))') },
        { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': withOutcomes('sum(tenant_b_secret_total)') },
      ),
      policy: { policy: DEFAULT_POLICY, diagnostics: [], file: null },
      telemetry: { source, at: new Date('2026-11-01T00:00:00Z') },
    });
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.some((q) => q.includes('tenant_b_secret_total'))).toBe(false);
    expect(asked).toContain('sum(increase(eval_runs_total[1d]))');
    expect(result.diagnostics.some((d) => d.message.includes('the base branch'))).toBe(true);
  });
});
