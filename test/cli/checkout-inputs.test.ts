import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_DIR } from '../../src/cli/commands/demo.js';
import { emptySnapshot } from '../../src/telemetry/snapshot.js';
import { CATALOG, QUEUE_FILE, clusterQueue } from '../github/scenarios.js';
import { runCli } from './run-cli.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * A pull request cannot write the policy or the "measurement" it is judged by, in the CLI either.
 * A CI job that runs `review --config ci/gpu-policy.yml --snapshot telemetry/snapshot.json` in the
 * pull request's checkout names files the pull request can edit: each is read as the base side
 * has it (the review's output is exactly that of the base's copy named from outside the checkout),
 * one the base does not hold stops the review (exit 2, naming it), and a file outside the checkout
 * is read as it stands. On directories and on git refs, the path spelt several ways.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const CONFIG = 'ci/gpu-policy.yml';
const SNAPSHOT = 'telemetry/snapshot.json';
const BASE_POLICY = 'mode: enforce\nheadroom: 0.2\nwindow: 14d\n';

/** What a pull request may write into the policy it names itself under, each loosening the review. */
const LOOSER_POLICIES = [
  'mode: advise\nheadroom: 1\n',
  'mode: enforce\nheadroom: 0.9\nidleBelow: 0.9\n',
  'mode: enforce\nwindow: 1h\nprices:\n  H100: 0.01\n',
  'mode: advise\n',
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function temp(): Promise<string> {
  const dir = await tempDir();
  cleanups.push(dir.cleanup);
  return dir.path;
}

/** A review's JSON output, its exit code and what it wrote to stderr. */
async function review(...args: string[]): Promise<Run> {
  return runCli('review', ...args, '--format', 'json');
}

/** The spellings of one file's path a CI job may use: plain, with `.` and `..` hops, and through a link into the checkout. */
async function spellings(root: string, path: string): Promise<string[]> {
  const linked = join(await temp(), 'linked');
  await symlink(join(root, path), linked);
  return [join(root, path), `${root}/./${path}`, `${root}/../${basename(root)}/${path}`, linked];
}

describe('--config inside the checkout under review', () => {
  it.each(LOOSER_POLICIES)('directories: a policy the PR edits is read as the base has it (%j)', async (looser) => {
    const tmp = await temp();
    const [base, head] = [join(tmp, 'base'), join(tmp, 'head')];
    await writeFiles(base, { [QUEUE_FILE]: clusterQueue(6), 'gpu-workloads.yaml': CATALOG, [CONFIG]: BASE_POLICY });
    await writeFiles(head, { [QUEUE_FILE]: clusterQueue(12), 'gpu-workloads.yaml': CATALOG, [CONFIG]: looser });
    const outside = join(await temp(), 'policy.yml');
    await writeFile(outside, BASE_POLICY);

    const expected = await review('--base', base, '--head', head, '--config', outside);
    expect(expected.code).toBe(0);
    for (const spelt of await spellings(head, CONFIG)) {
      const run = await review('--base', base, '--head', head, '--config', spelt);
      expect(run.stdout).toBe(expected.stdout);
      expect(run.stderr).toMatch(/read as .* has it \(ci\/gpu-policy\.yml\).*cannot change what it is judged by/);
    }
  });

  it.each(LOOSER_POLICIES)('git refs: a policy the PR edits is read from the base ref (%j)', async (looser) => {
    const repo = await temp();
    git(repo, 'init', '-q');
    await writeFiles(repo, { [QUEUE_FILE]: clusterQueue(6), 'gpu-workloads.yaml': CATALOG, [CONFIG]: BASE_POLICY });
    const base = commitAll(repo, 'base');
    await writeFiles(repo, { [QUEUE_FILE]: clusterQueue(12), [CONFIG]: looser });
    const head = commitAll(repo, 'head');
    const outside = join(await temp(), 'policy.yml');
    await writeFile(outside, BASE_POLICY);

    const expected = await review('--repo', repo, '--base', base, '--head', head, '--config', outside);
    for (const spelt of await spellings(repo, CONFIG)) {
      const run = await review('--repo', repo, '--base', base, '--head', head, '--config', spelt);
      expect(run.stdout).toBe(expected.stdout);
      expect(run.stderr).toContain('cannot change what it is judged by');
    }
  });

  it('a policy the PR adds decides nothing: the review stops naming it', async () => {
    const repo = await temp();
    git(repo, 'init', '-q');
    await writeFiles(repo, { [QUEUE_FILE]: clusterQueue(6), 'gpu-workloads.yaml': CATALOG });
    const base = commitAll(repo, 'base');
    await writeFiles(repo, { [QUEUE_FILE]: clusterQueue(12), [CONFIG]: 'mode: advise\nheadroom: 1\n' });
    const head = commitAll(repo, 'head');

    for (const spelt of await spellings(repo, CONFIG)) {
      const run = await review('--repo', repo, '--base', base, '--head', head, '--config', spelt, '--fail-on', 'not-justified');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/inside the checkout under review \(ci\/gpu-policy\.yml\) and \S+ has no such file/);
    }
  });

  it('a policy the PR leaves as the base has it is read without a note; one outside the checkout as it stands', async () => {
    const repo = await temp();
    git(repo, 'init', '-q');
    await writeFiles(repo, { [QUEUE_FILE]: clusterQueue(6), 'gpu-workloads.yaml': CATALOG, [CONFIG]: BASE_POLICY });
    const base = commitAll(repo, 'base');
    await writeFiles(repo, { [QUEUE_FILE]: clusterQueue(12) });
    const head = commitAll(repo, 'head');
    const outside = join(await temp(), 'policy.yml');
    await writeFile(outside, 'mode: advise\nheadroom: 1\n');

    const kept = await review('--repo', repo, '--base', base, '--head', head, '--config', join(repo, CONFIG));
    expect(kept.stderr).toBe('');
    const own = await review('--repo', repo, '--base', base, '--head', head, '--config', outside);
    expect(own.stderr).toBe('');
    expect(own.stdout).not.toBe(kept.stdout);
  });
});

/** The JSON with the telemetry source's label (the snapshot's path as given) left out. */
function withoutSource(json: string): string {
  return json.replace(/"source": "snapshot [^"]*"/g, '"source": "snapshot"');
}

describe('--snapshot inside the checkout under review', () => {
  /** The demo's sides with the demo's recorded telemetry at the base, and what the PR makes of it at the head. */
  async function demoSides(headSnapshot: string | null): Promise<{ base: string; head: string; outside: string }> {
    const tmp = await temp();
    const [base, head] = [join(tmp, 'base'), join(tmp, 'head')];
    await cp(join(DEMO_DIR, 'base'), base, { recursive: true });
    await cp(join(DEMO_DIR, 'head'), head, { recursive: true });
    const recorded = await readFile(join(DEMO_DIR, 'snapshot.json'), 'utf8');
    await mkdir(join(base, 'telemetry'), { recursive: true });
    await writeFile(join(base, SNAPSHOT), recorded);
    if (headSnapshot !== null) {
      await mkdir(join(head, 'telemetry'), { recursive: true });
      await writeFile(join(head, SNAPSHOT), headSnapshot);
    }
    return { base, head, outside: join(DEMO_DIR, 'snapshot.json') };
  }

  /** What a pull request may write over the recorded telemetry: none of it, or each answer emptied. */
  async function rewritten(): Promise<string[]> {
    const recorded = JSON.parse(await readFile(join(DEMO_DIR, 'snapshot.json'), 'utf8')) as { answers: Record<string, unknown> };
    const emptied = { ...recorded, answers: Object.fromEntries(Object.keys(recorded.answers).map((k) => [k, {}])) };
    return [JSON.stringify(emptySnapshot(new Date('2026-11-29T00:00:00Z'))), JSON.stringify(emptied)];
  }

  it('a snapshot the PR rewrites is read as the base has it', async () => {
    for (const text of await rewritten()) {
      const { base, head, outside } = await demoSides(text);
      const expected = await review('--base', base, '--head', head, '--snapshot', outside);
      // Two spellings only: each replay of the demo's telemetry takes seconds on a loaded machine.
      for (const spelt of [join(head, SNAPSHOT), ...(await spellings(head, SNAPSHOT)).slice(-1)]) {
        const run = await review('--base', base, '--head', head, '--snapshot', spelt);
        expect(withoutSource(run.stdout)).toBe(withoutSource(expected.stdout));
        expect(run.stderr).toContain('--snapshot');
      }
    }
  }, 240_000);

  it('a snapshot only the PR holds stops the review, naming it', async () => {
    const { base, head } = await demoSides(null);
    await rm(join(base, SNAPSHOT));
    await mkdir(join(head, 'telemetry'), { recursive: true });
    await cp(join(DEMO_DIR, 'snapshot.json'), join(head, SNAPSHOT));

    const run = await review('--base', base, '--head', head, '--snapshot', join(head, SNAPSHOT));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('(telemetry/snapshot.json) and');
  }, 60_000);
});

describe('--catalog inside the checkout under review', () => {
  const QUEUES = 'clusters/prod/kueue/cluster-queues.yaml';
  /** A training run of `gpus` GPUs every night in research, 00:00–06:00. */
  const entry = (name: string, gpus: number) =>
    `\n  - name: ${name}\n    type: training\n    queue: research\n    gpusPerJob: ${gpus}\n    runtime: 5h\n    window:\n      earliestStart: "00:00"\n      deadline: "06:00"\n`;
  /** Demand the PR declares for the GPUs it adds: one new entry, or the same split over several. */
  const DECLARED = [
    { name: 'one entry of 24', gpus: 24, entries: [entry('big-train', 24)] },
    { name: 'one entry of 396', gpus: 396, entries: [entry('big-train', 396)] },
    { name: '64 split over four entries', gpus: 64, entries: [1, 2, 3, 4].map((i) => entry(`shard-${i}`, 16)) },
  ];

  interface Verdict {
    verdict: string;
    catalogDemand?: { declared: { workload: string }[] };
  }

  async function verdictOf(...args: string[]): Promise<Verdict> {
    const run = await review(...args);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as Verdict;
  }

  async function declaring(root: string, base: string, gpus: number, entries: string[]): Promise<void> {
    const queues = await readFile(join(base, QUEUES), 'utf8');
    await writeFiles(root, {
      [QUEUES]: queues.replace('nominalQuota: 6\n', `nominalQuota: ${6 + gpus}\n`),
      'gpu-workloads.yaml': `${await readFile(join(base, 'gpu-workloads.yaml'), 'utf8')}${entries.join('')}`,
    });
  }

  it.each(DECLARED)('directories: $name is declared demand, as without --catalog', async ({ gpus, entries }) => {
    const tmp = await temp();
    const [base, head] = [join(tmp, 'base'), join(tmp, 'head')];
    await cp(join(DEMO_DIR, 'base'), base, { recursive: true });
    await cp(join(DEMO_DIR, 'base'), head, { recursive: true });
    await declaring(head, base, gpus, entries);

    const plain = await verdictOf('--base', base, '--head', head);
    expect(plain.verdict).not.toBe('justified');
    for (const spelt of await spellings(head, 'gpu-workloads.yaml')) {
      const given = await verdictOf('--base', base, '--head', head, '--catalog', spelt);
      expect(given.verdict).toBe(plain.verdict);
      expect(given.catalogDemand?.declared.map((d) => d.workload)).toEqual(plain.catalogDemand?.declared.map((d) => d.workload));
    }
    // The operator's own catalog, outside the checkout, is no pull request's: its entries count.
    const outside = join(await temp(), 'catalog.yaml');
    await cp(join(head, 'gpu-workloads.yaml'), outside);
    expect((await verdictOf('--base', base, '--head', head, '--catalog', outside)).catalogDemand).toBeUndefined();
  });

  it('git refs: an entry the PR adds to the catalog it names is declared demand', async () => {
    const repo = await temp();
    git(repo, 'init', '-q');
    await cp(join(DEMO_DIR, 'base'), repo, { recursive: true });
    const base = commitAll(repo, 'base');
    await declaring(repo, repo, 24, [entry('big-train', 24)]);
    const head = commitAll(repo, 'head');

    const given = await verdictOf('--repo', repo, '--base', base, '--head', head, '--catalog', join(repo, 'gpu-workloads.yaml'));
    expect(given.verdict).not.toBe('justified');
    expect(given.catalogDemand?.declared.map((d) => d.workload)).toEqual(['big-train']);
  });
});
