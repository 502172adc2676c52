import { execFileSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterQueue, QUEUE_FILE } from '../github/scenarios.js';
import { runCli } from './run-cli.js';
import { startServer } from '../telemetry/local-server.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * `review` over links that are no file of the repository, beside ones that are: whatever file
 * the review reads besides the changed capacity (the catalog, the manifests it fills entries
 * from), a link leading out of the tree, nowhere or round a loop is an error named on its own
 * file and the review goes on to a verdict. It never stops the review (exit 2), in git refs or
 * directories alike.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const CATALOG = 'gpu-workloads.yaml';
const declaring = (gpus: number) =>
  `workloads:\n  - name: sweep\n    type: training\n    queue: research\n    gpusPerJob: ${gpus}\n    runtime: 4h\n    window: {earliestStart: "00:00", deadline: "06:00"}\n`;

interface Shape {
  name: string;
  /** Links added at head, path → target; `{out}` is a file outside the tree. */
  links: Record<string, string>;
  /** Whether the base has a catalog (else the manifests are read for workloads). */
  catalog: boolean;
  /** The file the error is named on. */
  names: string;
}

const shapes: Shape[] = [
  { name: 'the catalog, a link leading outside', links: { [CATALOG]: '{out}' }, catalog: true, names: CATALOG },
  {
    name: 'the catalog, a link to a link leading outside',
    links: { [CATALOG]: 'ci/cat.yaml', 'ci/cat.yaml': '{out}' },
    catalog: true,
    names: CATALOG,
  },
  {
    name: 'the catalog, a link round a loop',
    links: { [CATALOG]: 'ci/a.yaml', 'ci/a.yaml': '../gpu-workloads.yaml' },
    catalog: true,
    names: CATALOG,
  },
  {
    name: 'a manifest linked outside, beside a queue raised through a link inside',
    links: { 'clusters/prod/jobs.yaml': '{out}', 'clusters/prod/more.yaml': 'queues.yaml' },
    catalog: false,
    names: 'clusters/prod/jobs.yaml',
  },
  {
    name: 'a manifest linked by a parent-directory hop through a linked directory',
    links: { 'clusters/up': '../..', 'clusters/prod/jobs.yaml': '../up/../etc/jobs.yaml', 'clusters/prod/more.yaml': 'queues.yaml' },
    catalog: false,
    names: 'clusters/prod/jobs.yaml',
  },
];

async function sides(shape: Shape): Promise<{ root: string; base: string; head: string }> {
  const tmp = await tempDir();
  cleanups.push(tmp.cleanup);
  const base = join(tmp.path, 'base');
  const head = join(tmp.path, 'head');
  const out = join(tmp.path, 'outside.yaml');
  await writeFile(out, declaring(400));
  const common = { [QUEUE_FILE]: clusterQueue(6), ...(shape.catalog ? { [CATALOG]: declaring(4) } : {}) };
  await writeFiles(base, common);
  await writeFiles(head, { ...common, [QUEUE_FILE]: clusterQueue(60) });
  for (const [at, target] of Object.entries(shape.links)) {
    await mkdir(join(head, at, '..'), { recursive: true });
    await rm(join(head, at), { force: true });
    await symlink(target === '{out}' ? out : target, join(head, at));
  }
  return { root: tmp.path, base, head };
}

async function expectVerdict(args: string[], names: string): Promise<void> {
  const { code, stdout, stderr } = await runCli('review', ...args, '--format', 'json', '--fail-on', 'not-justified');
  expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
  const review = JSON.parse(stdout) as { verdict: string; diagnostics: { file: string; severity: string }[] };
  expect(review.verdict).toBe('insufficient-evidence');
  expect(review.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file)).toContain(names);
}

describe('review goes on past links that are no file of the repository', () => {
  it.each(shapes)('directories: $name', async (shape) => {
    const { base, head } = await sides(shape);
    await expectVerdict(['--base', base, '--head', head], shape.names);
  });

  it.each(shapes)('git refs: $name', async (shape) => {
    const { head } = await sides(shape);
    const repo = await tempDir();
    cleanups.push(repo.cleanup);
    git(repo.path, 'init', '-q');
    await writeFiles(repo.path, { [QUEUE_FILE]: clusterQueue(6), ...(shape.catalog ? { [CATALOG]: declaring(4) } : {}) });
    const baseRef = commitAll(repo.path, 'base');
    git(repo.path, 'rm', '-rq', '.');
    git(repo.path, 'clean', '-fdq');
    await rm(join(repo.path, 'clusters'), { recursive: true, force: true });
    // The head's tree as the directory has it, links and all (copied as links by `cp -a`).
    execFileSync('cp', ['-a', `${head}/.`, repo.path]);
    const headRef = commitAll(repo.path, 'head');
    await expectVerdict(['--repo', repo.path, '--base', baseRef, '--head', headRef], shape.names);
  });
});

describe('a load test that is no file of the repository', () => {
  it('is named as missing evidence, and the review still reaches a verdict', async () => {
    const prometheus = await startServer((req, res) => {
      const resultType = req.path.endsWith('query_range') ? 'matrix' : 'vector';
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'success', data: { resultType, result: [] } }));
    });
    cleanups.push(() => prometheus.close());
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const catalog = `workloads:\n  - name: chat\n    type: inference\n    queue: research\n    gpusPerReplica: 1\n    replicas: 40\n    slo: { p95LatencyMs: 2000 }\n    selector: { namespace: chat }\n    loadTest: loadtests/chat.json\n`;
    await writeFile(join(tmp.path, 'outside.json'), '[]');
    for (const [side, gpus] of [
      ['base', 6],
      ['head', 60],
    ] as const) {
      await writeFiles(join(tmp.path, side), { [QUEUE_FILE]: clusterQueue(gpus), [CATALOG]: catalog });
      await mkdir(join(tmp.path, side, 'loadtests'), { recursive: true });
      await symlink(join(tmp.path, 'outside.json'), join(tmp.path, side, 'loadtests/chat.json'));
    }
    const { code, stdout, stderr } = await runCli(
      'review',
      ...['--base', join(tmp.path, 'base'), '--head', join(tmp.path, 'head'), '--prometheus', prometheus.url],
      ...['--format', 'json', '--fail-on', 'not-justified'],
    );
    // A verdict (the replicas measure nothing here), never a review that stopped (exit 2).
    expect({ stopped: code === 2, stderr }).toEqual({ stopped: false, stderr: '' });
    expect(prometheus.seen.length).toBeGreaterThan(0);
    const review = JSON.parse(stdout) as { verdict: string; missingEvidence: { what: string; how: string }[] };
    expect(review.verdict).not.toBe('justified');
    const named = review.missingEvidence.filter((m) => m.what === 'load test loadtests/chat.json').map((m) => m.how);
    expect(named).toEqual([expect.stringMatching(/^loadtests\/chat\.json: a symbolic link leading outside/)]);
  });
});
