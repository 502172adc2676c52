/**
 * A snapshot recorded with the CLI from a real Prometheus holding no-catalog-cluster.ts, for a
 * repository with no workload catalog, replayed offline: the same reviews as live.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReviewResult } from '../../src/domain/index.js';
import { reviewJson } from '../../src/report/json.js';
import { missingWords } from '../../src/report/missing-words.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { parseSnapshot, SnapshotSource } from '../../src/telemetry/snapshot.js';
import type { TelemetrySource } from '../../src/telemetry/source.js';
import { runCli } from '../cli/run-cli.js';
import { clusterQueue, karpenterPool } from './capacity-files.js';
import { MANIFESTS, noCatalogCluster, only, POOL, reviewOn, type Tree } from './no-catalog-cluster.js';
import { twoDaysPerFile } from './two-days.js';

const cluster = twoDaysPerFile(noCatalogCluster);
const review = (path: string, before: string, after: string, source: TelemetrySource) =>
  reviewOn(cluster.started, path, before, after, source);

/** Writes a tree of files under a new temporary directory. */
async function writeTree(files: Tree): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gj-snapshot-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('a snapshot with no workload catalog, recorded from a real Prometheus', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  /** Records with the CLI, then replays a review of the change offline; the live review asks at the step the CLI records at. */
  async function replayed(args: string[], path: string, before: string, after: string): Promise<[ReviewResult, ReviewResult]> {
    const { prom, at: end } = cluster.started;
    const out = await writeTree({});
    dirs.push(out);
    const file = join(out, 'snap.json');
    const rec = await runCli('snapshot', ...args, '--prometheus', prom.url, '--at', end.toISOString(), '--window', '2d', '--out', file);
    expect(rec.stderr).toMatch(/^Recorded \d+ answers/m);
    expect(rec.code).toBe(0);
    const snapshot = parseSnapshot(await readFile(file, 'utf8'), file);
    const live = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: prom.url }, { retries: 0 }), { minStepSeconds: 300 });
    return Promise.all([review(path, before, after, live), review(path, before, after, new SnapshotSource(snapshot, file))]);
  }
  const reviewsOf = (r: ReviewResult) => reviewJson(r).reviews;

  it('holds what a review of every queue the manifests name needs, read from a checkout (--dir)', async () => {
    const dir = await writeTree(MANIFESTS);
    dirs.push(dir);
    for (const queue of ['batch-q', 'ml-q']) {
      const path = `queues/${queue}.yaml`;
      const [live, replay] = await replayed(['--dir', dir], path, clusterQueue(queue, 4, null), clusterQueue(queue, 16, null));
      expect(replay.missingEvidence.filter((m) => missingWords(m).what.includes('holds no answer'))).toEqual([]);
      expect(reviewsOf(replay)).toEqual(reviewsOf(live));
      expect(only(replay).inferred?.some((w) => w.runsObserved > 0)).toBe(true);
    }
  });

  it('holds what the review of the change between --base and --head needs', async () => {
    const path = 'pools/a100.yaml';
    const [before, after] = [karpenterPool(POOL, 'p4de.24xlarge', 8), karpenterPool(POOL, 'p4de.24xlarge', 12)];
    const base = await writeTree({ ...MANIFESTS, [path]: before });
    const head = await writeTree({ ...MANIFESTS, [path]: after });
    dirs.push(base, head);
    const [live, replay] = await replayed(['--base', base, '--head', head], path, before, after);
    expect(replay.missingEvidence.filter((m) => missingWords(m).what.includes('holds no answer'))).toEqual([]);
    expect(reviewsOf(replay)).toEqual(reviewsOf(live));
    expect(only(replay).idlePods?.map((p) => p.pod)).toEqual(['notebook-0']);
  });
});
