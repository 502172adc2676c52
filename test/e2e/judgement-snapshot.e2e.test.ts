/**
 * A snapshot recorded with `snapshot --catalog` alone (no --base/--head), replayed: each judgement
 * scenario (judgement.e2e.test.ts) gives the review it gives live from the same real Prometheus.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Policy, ReviewResult } from '../../src/domain/index.js';
import { reviewJson } from '../../src/report/json.js';
import { missingWords } from '../../src/report/missing-words.js';
import { parseSnapshot, SnapshotSource } from '../../src/telemetry/snapshot.js';
import { runCli } from '../cli/run-cli.js';
import type { Tree } from '../memory-change-set.js';
import { karpenterPool } from './capacity-files.js';
import { file, job, judgementPerFile, lever, only, queue, reviewWith } from './judgement-review.js';

const { cluster, review } = judgementPerFile();

describe('a snapshot recorded from the catalog alone', () => {
  // `snapshot --catalog` with no --base/--head records what a review of every queue and pool the
  // catalog names asks, cohort lending limits and usage, Pending pods and replica peaks included:
  // replayed in CI, each scenario gives the review it gives live.
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  async function liveAndReplayed(
    base: Tree,
    head: Tree,
    catalog: string,
    over: Partial<Policy> = {},
  ): Promise<[ReviewResult, ReviewResult]> {
    const { prom, at } = cluster.started;
    const dir = await mkdtemp(join(tmpdir(), 'gj-judgement-'));
    dirs.push(dir);
    const [catalogFile, out] = [join(dir, 'gpu-workloads.yaml'), join(dir, 'snap.json')];
    await writeFile(catalogFile, `workloads:\n${catalog}`);
    const rec = await runCli(
      'snapshot',
      '--catalog',
      catalogFile,
      '--prometheus',
      prom.url,
      '--at',
      at.toISOString(),
      '--window',
      '2d',
      '--out',
      out,
    );
    expect(rec.stderr).toMatch(/^Recorded \d+ answers/m);
    expect(rec.code).toBe(0);
    const replay = new SnapshotSource(parseSnapshot(await readFile(out, 'utf8'), out), out);
    return [await review(base, head, catalog, over), await reviewWith({ source: replay, at }, base, head, catalog, over)];
  }
  const same = ([live, replay]: [ReviewResult, ReviewResult]): ReviewResult => {
    expect(replay.missingEvidence.filter((m) => missingWords(m).what.includes('holds no answer'))).toEqual([]);
    expect(reviewJson(replay).reviews).toEqual(reviewJson(live).reviews);
    return replay;
  };

  it('holds the cohort: lending limits, what each lender uses, one lender shared by two queues', async () => {
    const q = (n: number) => ({ 'clusters/queues.yaml': queue('research-m', n, 'lend-m') });
    const one = same(await liveAndReplayed(q(4), q(8), `${job('eval', 'queue: research-m', 4, 6, 0, 6, 0)}\n`));
    expect(one).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 1 });
    const queues = (a: number, b: number) => file(queue('team-a', a, 'shared'), queue('team-b', b, 'shared'), queue('pool-q', 8, 'shared'));
    const jobs = `${job('job-a', 'queue: team-a', 8, 6, 0, 6, 0)}\n${job('job-b', 'queue: team-b', 8, 6, 0, 6, 0)}\n`;
    const two = same(await liveAndReplayed({ 'q.yaml': queues(4, 4) }, { 'q.yaml': queues(8, 8) }, jobs, { headroom: 0 }));
    expect(two).toMatchObject({ verdict: 'partially-justified', gpusNeeded: 2 });
  }, 120_000);

  it('holds the Running and Pending pods, the idle job and the replicas’ peaks', async () => {
    const shards = `${job('shards', 'pool: shard-pool', 4, 2, 0, 6, 0, ['    jobsPerDay: 2', '    selector: { namespace: shards }'])}\n`;
    const p3 = (n: number) => ({ 'pools/shards.yaml': karpenterPool('shard-pool', 'p4d.24xlarge', n) });
    const three = same(await liveAndReplayed(p3(4), p3(8), shards, { headroom: 0 }));
    expect(only(three)).toMatchObject({ verdict: 'not-justified', runtimes: [{ differs: false }] });
    const batch = `${job('eval', 'queue: batch', 2, 2, 0, 4, 0, ['    jobsPerDay: 3', '    selector: { namespace: eval5 }'])}
  - name: idle-train
    type: training
    queue: batch
    gpusPerJob: 2
    runtime: 1d
    window: { earliestStart: "00:00", deadline: "00:00" }
    selector: { namespace: idle5 }
`;
    const b5 = (n: number) => ({ 'q.yaml': queue('batch', n, null) });
    const five = same(await liveAndReplayed(b5(4), b5(8), batch, { headroom: 0 }));
    expect(only(five).combination).toEqual({ levers: ['stagger', 'reclaim-idle'], meetsNeed: true });
    const embed =
      '  - name: embed\n    type: inference\n    pool: a100-40\n    gpusPerReplica: 1\n    replicas: 10\n    selector: { namespace: embed }\n';
    const pa = (n: number) => ({ 'pools/a100.yaml': karpenterPool('a100-40', 'p4d.24xlarge', n) });
    const six = same(await liveAndReplayed(pa(8), pa(12), embed));
    expect(lever(only(six), 'mig')?.detail).toMatchObject({ profile: '1g.5gb' });
  }, 120_000);
});
