import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, UnreadablePathError, type ChangeSet } from '../domain/index.js';
import { runReview, type ReviewInput } from '../review/index.js';
import { memoryChangeSet, type Tree } from '../../test/memory-change-set.js';
import { concatDoubling } from '../../test/helpers/hostile-files.js';
import { catalog, queueFile } from '../../test/report/scenarios.js';
import { DEMO_DIR } from '../cli/commands/demo.js';
import { loadPolicy } from '../cli/policy-from-tree.js';
import { telemetryFromFlags } from '../cli/telemetry-flags.js';
import { changeSetFromArgs } from '../cli/tree-readers/change-set.js';
import { ReviewDeadline, ReviewDeadlineError } from './review-deadline.js';
import { ReviewPool, ReviewWorkerError } from './review-pool.js';

const pool = new ReviewPool({ workers: 2, memoryMb: 512 });
afterAll(() => pool.close());

const policy = { policy: DEFAULT_POLICY, diagnostics: [], file: null };
const HEAD = '0123456789abcdef0123456789abcdef01234567';

function inputOf(changes: ChangeSet): ReviewInput {
  return { changes, policy, headSha: HEAD };
}

/**
 * A review that does not end by itself: the hostile file is answered, and every other read is
 * left unanswered, as a source that hangs would leave it (the evaluators are bounded, so a file
 * alone no longer holds a review for long).
 */
function hostile(): ChangeSet {
  const f = concatDoubling();
  const answer = (text: string) => (path: string) => (path === f.path ? Promise.resolve(text) : new Promise<null>(() => {}));
  return {
    base: { label: 'base', read: answer(f.base) },
    head: { label: 'head', read: answer(f.head) },
    changedPaths: () => Promise.resolve([f.path, 'infra/gke/more-pools.tf']),
  };
}

const never = new AbortController().signal;

describe('the review pool', () => {
  it('gives the review the App thread would give, for every verdict and with telemetry', async () => {
    const cases: [string, ReviewInput][] = Object.entries(VERDICT_TREES).map(([name, [base, head, over]]) => [
      name,
      { changes: memoryChangeSet(base, head), policy: { ...policy, policy: { ...DEFAULT_POLICY, ...over } }, headSha: HEAD },
    ]);
    // The demo: a directory-backed change set that lists, and a telemetry snapshot replayed through the port.
    const side = (name: string) => `${DEMO_DIR}${name}`;
    const changes = await changeSetFromArgs({ base: side('base'), head: side('head') });
    const telemetry = await telemetryFromFlags({ snapshot: `${DEMO_DIR}snapshot.json` });
    cases.push(['demo', { changes, policy: await loadPolicy(changes.base), ...(telemetry ? { telemetry } : {}) }]);
    for (const [name, input] of cases) {
      expect(await pool.run(input, never), name).toEqual(await runReview(input));
    }
  }, 120_000);

  it('carries what is not a file, the repository names and the base branch to the worker, through the deadline', async () => {
    const changes: ChangeSet = {
      base: { label: 'base', read: () => Promise.resolve(null), notAFile: () => Promise.resolve(null) },
      head: {
        label: 'head',
        read: () => Promise.resolve(null),
        notAFile: (path) => Promise.resolve(path === 'vendor/pools' ? 'a git submodule' : null),
      },
      changedPaths: () => Promise.resolve(['vendor/pools']),
      repositories: ['github.com/acme/infra'],
    };
    const input: ReviewInput = { ...inputOf(new ReviewDeadline(60).track(changes)), baseBranch: 'main' };
    const inWorker = await pool.run(input, never);
    expect(inWorker).toEqual(await runReview(input));
    expect(JSON.stringify(inWorker)).toContain('submodule');
    expect(inWorker.context.baseBranch).toBe('main');
  });

  it('reads a path that is no file as detection does in the App thread: an error on the file, not a failed review', async () => {
    const changes: ChangeSet = {
      base: { label: 'base', read: () => Promise.resolve(null) },
      head: {
        label: 'head',
        read: (path) =>
          path === 'clusters/q.yaml' ? Promise.reject(new UnreadablePathError(path, 'over the size limit')) : Promise.resolve(null),
      },
      changedPaths: () => Promise.resolve(['clusters/q.yaml']),
    };
    const inWorker = await pool.run(inputOf(changes), never);
    expect(inWorker).toEqual(await runReview(inputOf(changes)));
    expect(inWorker.diagnostics).toContainEqual(expect.objectContaining({ file: 'clusters/q.yaml', severity: 'error' }));
  });

  it("fails a review with its port's own error, the very object", async () => {
    class Refused extends Error {
      readonly status = 403;
    }
    const refused = new Refused('no access');
    const changes: ChangeSet = {
      base: { label: 'base', read: () => Promise.resolve(null) },
      head: { label: 'head', read: () => Promise.reject(refused) },
      changedPaths: () => Promise.resolve(['clusters/q.yaml']),
    };
    await expect(pool.run(inputOf(changes), never)).rejects.toBe(refused);
  });

  it('stops a review held by a hostile file at its deadline and serves the next one meanwhile and after', async () => {
    // Both workers started: a cold one takes seconds to load on a busy machine.
    await Promise.all([pool.run(inputOf(ordinary()), never), pool.run(inputOf(ordinary()), never)]);
    const deadline = new ReviewDeadline(6);
    let settled = false;
    const caught = deadline
      .race(pool.run(inputOf(deadline.track(hostile())), deadline.signal))
      .catch((err: unknown) => err)
      .finally(() => (settled = true));
    // Another pull request meanwhile: the other worker takes it while the first is held.
    const other = await pool.run(inputOf(ordinary()), never);
    expect(other.changes).toHaveLength(1);
    expect(settled).toBe(false);
    const err = await caught;
    expect(err).toBeInstanceOf(ReviewDeadlineError);
    expect((err as Error).message).toContain('the last file it read was infra/gke/pools.tf');
    // Its worker was terminated, not left spinning; the next review gets a fresh one.
    expect(pool.state.busy).toBe(0);
    expect((await pool.run(inputOf(ordinary()), never)).changes).toHaveLength(1);
  }, 60_000);

  it('takes reviews in turn when every worker is busy, and a waiting review can reach its deadline in the queue', async () => {
    const one = new ReviewPool({ workers: 1, memoryMb: 512 });
    try {
      const first = new ReviewDeadline(4);
      const held = first.race(one.run(inputOf(hostile()), first.signal)).catch((err: unknown) => err);
      const second = new ReviewDeadline(1);
      const waiting = await second.race(one.run(inputOf(ordinary()), second.signal)).catch((err: unknown) => err);
      expect(waiting).toBeInstanceOf(ReviewDeadlineError);
      expect((waiting as Error).message).toContain('before it read any file');
      expect(one.state.waiting).toBe(0);
      expect(await held).toBeInstanceOf(ReviewDeadlineError);
      expect((await one.run(inputOf(ordinary()), never)).changes).toHaveLength(1);
    } finally {
      await one.close();
    }
  }, 60_000);

  it('a review that outgrows its memory fails by name; the App and the pool go on', async () => {
    const small = new ReviewPool({ workers: 1, memoryMb: 48 });
    try {
      const big = 'x'.repeat(4 * 1024 * 1024);
      // A port answering with more than the worker may hold.
      const changes: ChangeSet = {
        base: { label: 'base', read: () => Promise.resolve(null) },
        head: { label: 'head', read: () => Promise.resolve(`# ${big}\n`) },
        changedPaths: () => Promise.resolve(Array.from({ length: 64 }, (_, i) => `clusters/q${i}.yaml`)),
      };
      const err = await small.run(inputOf(changes), never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReviewWorkerError);
      expect((err as Error).message).toMatch(/ran out of memory: its worker may use 48 MB/);
      expect((await small.run(inputOf(ordinary()), never)).changes).toHaveLength(1);
    } finally {
      await small.close();
    }
  }, 60_000);
});

/** One pull request per verdict (test/report/scenarios.ts), as trees and policy. */
const VERDICT_TREES: Record<string, [Tree, Tree, Partial<typeof DEFAULT_POLICY>]> = {
  'not-justified': [
    { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog() },
    { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog() },
    { headroom: 0 },
  ],
  'partially-justified': [
    { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog() },
    { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog() },
    { headroom: 0.2 },
  ],
  justified: [
    { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog('tight', 4, '6h', 2) },
    { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog('tight', 4, '6h', 2) },
    { headroom: 0, mode: 'enforce' },
  ],
  'insufficient-evidence': [{ 'q.yaml': queueFile(4) }, { 'q.yaml': queueFile(8) }, {}],
  'no-gpu-change': [{ 'README.md': 'a' }, { 'README.md': 'b' }, {}],
};

/** A pull request the not-justified way, fresh. */
function ordinary(): ChangeSet {
  const [base, head] = VERDICT_TREES['not-justified'] as [Tree, Tree, unknown];
  return memoryChangeSet(base, head);
}
