/**
 * The review's conclusion and override rules, against a publisher and reads in memory: no HTTP,
 * no fake GitHub (the adapters' own tests run against that). Each rule is asked over every
 * verdict and both modes, so a rule holds for the class, not one example.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy } from '../domain/index.js';
import { renderFailedCheck } from '../report/index.js';
import { runReview, type LoadedPolicy } from '../review/index.js';
import { memoryChangeSet, type Tree } from '../../test/memory-change-set.js';
import { catalog, queueFile } from '../../test/report/scenarios.js';
import { MemoryPublisher, memoryReads, type MemoryReadsOptions } from '../../test/github/memory-review.js';
import type { PullRequestTarget } from './api/index.js';
import { GitHubApiError } from './api/index.js';
import type { OverrideGrant } from './overrides/index.js';
import { parseOverrideMarkers } from './overrides/index.js';
import { stateKey } from './overrides/index.js';
import { DEFAULT_INSTANCE } from './publish/index.js';
import { WriteBudgetExceededError } from './publish/index.js';
import { reviewAndPublish, type ReviewOutcome } from './review-and-publish.js';
import type { Judged } from './review-reads.js';

const HEAD = 'a'.repeat(40);
const TARGET: PullRequestTarget = {
  base: { owner: 'acme', repo: 'infra' },
  head: { owner: 'acme', repo: 'infra' },
  number: 7,
  baseSha: 'b'.repeat(40),
  headSha: HEAD,
};
const KEY = stateKey('a state secret only the server holds');
const log = pino({ level: 'silent' });

type Mode = Policy['mode'];

/** One pull request per verdict, as the review judges it under the mode. */
const PULLS: Record<string, (mode: Mode) => { base: Tree; head: Tree; policy: Partial<Policy> }> = {
  'not justified': (mode) => ({
    base: { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog() },
    head: { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog() },
    policy: { headroom: 0, mode },
  }),
  justified: (mode) => ({
    base: { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog('tight', 4, '6h', 2) },
    head: { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog('tight', 4, '6h', 2) },
    policy: { headroom: 0, mode },
  }),
  'insufficient evidence': (mode) => ({ base: { 'q.yaml': queueFile(4) }, head: { 'q.yaml': queueFile(8) }, policy: { mode } }),
  'no GPU change': (mode) => ({ base: { 'README.md': 'a' }, head: { 'README.md': 'b' }, policy: { mode } }),
};

async function judge(kind: string, mode: Mode): Promise<Judged> {
  const pull = PULLS[kind]?.(mode);
  if (!pull) throw new Error(`no pull request ${kind}`);
  const changes = memoryChangeSet(pull.base, pull.head);
  const policy: LoadedPolicy = { policy: { ...DEFAULT_POLICY, ...pull.policy }, diagnostics: [], file: null };
  return { changes, policy, result: await runReview({ changes, policy, headSha: HEAD }) };
}

interface Run extends Partial<MemoryReadsOptions> {
  judged: MemoryReadsOptions['judged'];
  grant?: OverrideGrant;
  key?: typeof KEY;
  retry?: (err: unknown) => boolean;
}

function review(publisher: MemoryPublisher, run: Run): Promise<ReviewOutcome> {
  return reviewAndPublish({
    log,
    target: TARGET,
    reads: memoryReads({ headSha: HEAD, ...run }),
    publisher: publisher.nextReview(),
    grant: run.grant,
    stateKey: run.key === undefined ? KEY : run.key,
    instance: DEFAULT_INSTANCE,
    retry: run.retry,
  });
}

/** A command written after anything the memory publisher's clock has shown. */
function grant(commentId: number, by = 'lead'): OverrideGrant {
  return { by, reason: 'the launch needs it', commentId, commandAt: '2027-01-01T00:00:00Z' };
}

describe('reviewAndPublish: the conclusion', () => {
  for (const kind of Object.keys(PULLS)) {
    for (const mode of ['advise', 'enforce'] as const) {
      it(`${kind}, ${mode}: the check concludes once, with the outcome's conclusion; a comment only for a GPU change`, async () => {
        const publisher = new MemoryPublisher();
        const judged = await judge(kind, mode);
        const outcome = await review(publisher, { judged });
        expect(publisher.check.conclusions.map((c) => c.conclusion)).toEqual([outcome.conclusion]);
        expect(outcome.result).toBe(judged.result);
        const passes = outcome.conclusion === 'success';
        if (!passes) expect(outcome.conclusion).toBe(mode === 'enforce' ? 'failure' : 'neutral');
        const gpuChange = judged.result.verdict !== 'no-gpu-change';
        expect(publisher.comment !== null).toBe(gpuChange);
        if (gpuChange) expect(publisher.comment?.body).toContain(DEFAULT_INSTANCE.commentMarker);
        expect(outcome.override).toBeNull();
      });
    }
  }

  it('the justified pull request passes in both modes, the not-justified one does not', async () => {
    for (const mode of ['advise', 'enforce'] as const) {
      expect((await review(new MemoryPublisher(), { judged: await judge('justified', mode) })).conclusion).toBe('success');
      expect((await review(new MemoryPublisher(), { judged: await judge('not justified', mode) })).conclusion).not.toBe('success');
    }
  });

  it('a review that could not read concludes "could not run": failing unless an advise policy was read first', async () => {
    const unread = new GitHubApiError(502, 'GET', '/repos/acme/infra/pulls/7/files');
    const before = new MemoryPublisher();
    const outcome = await review(before, { judged: () => Promise.reject(unread) });
    expect(outcome).toMatchObject({ result: null, conclusion: 'failure' });
    expect(before.check.shown?.title).toBe(renderFailedCheck('x').title);
    expect(before.comment).toBeNull();

    for (const mode of ['advise', 'enforce'] as const) {
      const { policy } = await judge('not justified', mode);
      const after = new MemoryPublisher();
      const failed = await review(after, {
        judged: async (onPolicy) => {
          onPolicy(policy);
          throw unread;
        },
      });
      expect(failed.conclusion).toBe(mode === 'enforce' ? 'failure' : 'neutral');
    }
  });

  it('a failure the queue will retry is thrown and the check left to that run, never concluded here', async () => {
    const publisher = new MemoryPublisher();
    const err = new GitHubApiError(502, 'GET', '/repos/acme/infra/pulls/7/files');
    await expect(review(publisher, { judged: () => Promise.reject(err), retry: () => true })).rejects.toBe(err);
    expect(publisher.check.abandoned).toBe(true);
    expect(publisher.check.conclusions).toEqual([]);
  });

  it('a comment that cannot be written keeps the conclusion and says so on the check', async () => {
    for (const kind of ['not justified', 'insufficient evidence']) {
      const publisher = new MemoryPublisher();
      publisher.refuseComment = () => new GitHubApiError(500, 'PATCH', '/repos/acme/infra/issues/comments/1');
      const outcome = await review(publisher, { judged: await judge(kind, 'enforce') });
      expect(outcome.conclusion).toBe('failure');
      expect(publisher.check.conclusions.map((c) => c.conclusion)).toEqual(['failure']);
      expect(publisher.check.rewrites.at(-1)?.summary).toMatch(/The comment could not be posted: .*500/);
    }
  });

  it('a conclusion GitHub will not take is concluded later, never left in progress; only a rate limit is not thrown', async () => {
    const retryAt = Date.now() + 3_600_000;
    const limited = new MemoryPublisher();
    const judged = () => Promise.reject(new Error('the review stopped'));
    limited.nextReview = function () {
      this.check.refuse = () => new WriteBudgetExceededError(retryAt);
      return this;
    };
    const outcome = await review(limited, { judged });
    expect(outcome.conclusion).toBe('failure');
    expect(limited.check.later).toEqual([{ output: expect.objectContaining({ conclusion: 'failure' }) as unknown, at: retryAt }]);

    const broken = new MemoryPublisher();
    const refusal = new GitHubApiError(500, 'PATCH', '/repos/acme/infra/issues/comments/1');
    broken.nextReview = function () {
      this.check.refuse = () => refusal;
      return this;
    };
    const before = Date.now();
    await expect(review(broken, { judged })).rejects.toBe(refusal);
    expect(broken.check.later).toHaveLength(1);
    expect(broken.check.later[0]?.at).toBeGreaterThanOrEqual(before);
  });

  it('a head that moved during the review: the check concludes for the reviewed commit, the comment is left to the newer review', async () => {
    const publisher = new MemoryPublisher();
    const outcome = await review(publisher, { judged: await judge('not justified', 'enforce'), headSha: 'c'.repeat(40) });
    expect(outcome.conclusion).toBe('failure');
    expect(publisher.check.conclusions).toHaveLength(1);
    expect(publisher.comment).toBeNull();
    expect(publisher.suggestions).toBeNull();
  });
});

describe('reviewAndPublish: overrides', () => {
  async function shown(mode: Mode = 'enforce'): Promise<{ publisher: MemoryPublisher; judged: Judged }> {
    const publisher = new MemoryPublisher();
    const judged = await judge('not justified', mode);
    await review(publisher, { judged });
    expect(publisher.comment).not.toBeNull();
    return { publisher, judged };
  }

  for (const mode of ['advise', 'enforce'] as const) {
    it(`${mode}: a grant after our comment showed the review passes the check, is recorded in the comment and carried by the next review`, async () => {
      const { publisher, judged } = await shown(mode);
      const granted = await review(publisher, { judged, grant: grant(501) });
      expect(granted.refused).toBeNull();
      expect(granted.override).toMatchObject({ by: 'lead', commentId: 501 });
      // The outcome keeps the conclusion before the override; the check shows the override.
      expect(granted.conclusion).not.toBe('success');
      expect(publisher.check.shown?.conclusion).toBe('success');
      expect(parseOverrideMarkers(publisher.comment?.body ?? '')).toHaveLength(1);

      const carried = await review(publisher, { judged });
      expect(carried.override).toMatchObject({ commentId: 501 });
      expect(publisher.check.shown?.conclusion).toBe('success');
    });
  }

  it('a carried override ends when its grantor may no longer override, or its command no longer stands', async () => {
    const endings: Partial<MemoryReadsOptions>[] = [
      { mayOverride: { allowed: false, why: 'lead no longer has write permission' } },
      { commandGone: 'the override command comment was deleted' },
      { mayOverride: { allowed: true, via: 'code owner of gpu-workloads.yaml', scope: 'demand' } },
    ];
    for (const ending of endings) {
      const { publisher, judged } = await shown();
      await review(publisher, { judged, grant: grant(502) });
      expect(publisher.check.shown?.conclusion).toBe('success');
      const ended = await review(publisher, { judged, ...ending });
      expect(ended.override).toBeNull();
      expect(publisher.check.shown?.conclusion).toBe('failure');
      // A later review does not take the ended record back from the comment.
      const later = await review(publisher, { judged, ...ending });
      expect(later.override).toBeNull();
    }
  });

  it('a grant is refused, and the check keeps failing, when nothing binds it to what its author saw', async () => {
    const cases: { why: RegExp; setup: () => Promise<{ publisher: MemoryPublisher; judged: Judged }>; key?: null; at?: string }[] = [
      // No review had been shown when the command was written.
      {
        why: /no review of this GPU request had been posted/,
        setup: async () => ({ publisher: new MemoryPublisher(), judged: await judge('not justified', 'enforce') }),
      },
      // Written before the comment showed what is now under review.
      { why: /commented before the review showed/, setup: () => shown(), at: '2000-01-01T00:00:00Z' },
      // No state secret: nothing can be signed or trusted.
      { why: /holds no state secret/, setup: () => shown(), key: null },
    ];
    for (const c of cases) {
      const { publisher, judged } = await c.setup();
      const asked = { ...grant(503), ...(c.at ? { commandAt: c.at } : {}) };
      const outcome = await review(publisher, { judged, grant: asked, ...(c.key === null ? { key: null } : {}) });
      expect(outcome.refused).toMatch(c.why);
      expect(outcome.override).toBeNull();
      expect(publisher.check.shown?.conclusion).toBe('failure');
    }
  });

  it('a passing review records no override, whatever is asked', async () => {
    const publisher = new MemoryPublisher();
    const judged = await judge('justified', 'enforce');
    await review(publisher, { judged });
    const outcome = await review(publisher, { judged, grant: grant(504) });
    expect(outcome).toMatchObject({ conclusion: 'success', override: null, refused: null });
    expect(publisher.check.conclusions.map((c) => c.conclusion)).toEqual(['success']);
  });
});
