import { describe, expect, it } from 'vitest';
import { terminalProgress, withProgress } from '../../src/cli/progress.js';
import type { NamedQuery } from '../../src/telemetry/queries/named-query.js';
import type { QueryResult, TelemetrySource } from '../../src/telemetry/source.js';

const query = (id: string): NamedQuery => ({ id, kind: 'instant', promql: 'up', what: id, how: 'scrape it' });
const at = new Date('2026-11-01T00:00:00Z');

function fakeSource(): TelemetrySource {
  return {
    description: 'prometheus at http://127.0.0.1:9090',
    query: async (q, when, window): Promise<QueryResult> =>
      q.id === 'gone'
        ? { query: q, source: 'p', at: when.toISOString(), windowMinutes: window, status: 'missing', reason: 'no-data', message: 'none' }
        : {
            query: q,
            source: 'p',
            at: when.toISOString(),
            windowMinutes: window,
            status: 'ok',
            resultType: 'vector',
            series: [],
            skipped: { nan: 0, inf: 0, blank: 0 },
            warnings: [],
          },
  };
}

describe('telemetry progress', () => {
  it('rewrites one plain line per answer on a terminal and ends it once', async () => {
    const written: string[] = [];
    const progress = withProgress(fakeSource(), { write: (t) => written.push(t) });
    await progress.source.query(query('a'), at, 60);
    await progress.source.query(query('gone'), at, 60);
    progress.done();
    expect(written).toHaveLength(3);
    expect(written[1]).toMatch(/^\rtelemetry: 2 queries \(1 without data\), \d+\.\d s$/);
    expect(written[2]?.endsWith('\n')).toBe(true);
    // No colour or cursor codes: only the carriage return that rewrites the line.
    // eslint-disable-next-line no-control-regex -- ESC starts every terminal escape code.
    expect(written.join('')).not.toMatch(/\u001b/);
    expect(progress.source.description).toBe('prometheus at http://127.0.0.1:9090');
  });

  it('prints nothing when stderr is not a terminal', async () => {
    const source = fakeSource();
    const sink = terminalProgress({ isTTY: false } as NodeJS.WriteStream);
    expect(sink).toBeNull();
    const progress = withProgress(source, sink);
    expect(progress.source).toBe(source);
  });
});
