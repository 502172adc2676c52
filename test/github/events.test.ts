import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { checkRunPayload, checkSuitePayload } from '../helpers/payloads.js';
import {
  ENFORCE_POLICY,
  HEAD_SHA,
  INSTALLATION,
  NEWER_SHA,
  NUMBER,
  POLICY_FILE,
  REPO_PATH,
  prEvent,
  pullRequest,
  useApp,
  writes,
} from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

const h = useApp();

const sticky = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('pull_request events', () => {
  it('edited: reviews when the base branch changed, not for a new title', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();

    await h.app.deliver('pull_request', prEvent({ action: 'edited', changes: { title: { from: 'Old title' } } }));
    expect(h.fake.requests).toEqual([]);

    await h.app.deliver(
      'pull_request',
      prEvent({ action: 'edited', changes: { base: { ref: { from: 'release' }, sha: { from: 'a'.repeat(40) } } } }),
    );
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]?.status).toBe('completed');
  });

  it('a draft is analysed and the comment says it is a draft; ready_for_review reviews again', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({ draft: true })).serve();

    await h.app.deliver('pull_request', prEvent({ draft: true }));
    expect(repo.checkRuns[0]?.status).toBe('completed');
    expect(sticky(repo)).toContain('is a draft');

    repo.pr.draft = false;
    await h.app.deliver('pull_request', prEvent({ action: 'ready_for_review', draft: false }));
    expect(repo.checkRuns).toHaveLength(2);
    expect(sticky(repo)).not.toContain('is a draft');
  });
});

describe('check events', () => {
  it("check_run.rerequested re-runs our check for its commit's pull request, and ignores other checks", async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();

    await h.app.deliver(
      'check_run',
      checkRunPayload({ installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER], name: 'lint' }),
    );
    expect(h.fake.requests).toEqual([]);

    await h.app.deliver('check_run', checkRunPayload({ installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER] }));
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ head_sha: HEAD_SHA, status: 'completed', conclusion: 'neutral' });
  });

  it('check_suite.requested finds a fork PR by its head commit; a commit already reviewed is not reviewed twice, nor re-run at once', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({ head: { owner: 'forker', repo: 'Hello-World' } })).serve().withoutGraphql();

    await h.app.deliver('check_suite', checkSuitePayload('requested', { installationId: INSTALLATION, headSha: HEAD_SHA }));
    expect(h.fake.calls('GET', `${REPO_PATH}/commits/${HEAD_SHA}/pulls`)).toHaveLength(1);
    expect(repo.checkRuns).toHaveLength(1);
    // The fork's files were read from the fork.
    expect(h.fake.calls('GET', /^\/repos\/forker\/Hello-World\/contents\//).length).toBeGreaterThan(0);

    await h.app.deliver('check_suite', checkSuitePayload('requested', { installationId: INSTALLATION, headSha: HEAD_SHA }));
    expect(repo.checkRuns).toHaveLength(1);

    // "Re-run all checks" right after a review that reached a verdict: answered by that review
    // (GPU_JUSTIFY_RERUN_COALESCE_SECONDS); commands.test.ts shows a re-run after it runs.
    await h.app.deliver(
      'check_suite',
      checkSuitePayload('rerequested', { installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER] }),
    );
    expect(repo.checkRuns).toHaveLength(1);
  });

  it('a check event for a commit that is no longer the head reviews nothing', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    repo.currentHeadSha = NEWER_SHA;

    await h.app.deliver('check_run', checkRunPayload({ installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER] }));

    expect(repo.checkRuns).toEqual([]);
    expect(writes(h.fake)).toEqual([]);
  });
});

describe('policy', () => {
  it('a PR that edits the policy is judged by the base version and told so', async () => {
    const state = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, { ...state, headFiles: { ...state.headFiles, [POLICY_FILE]: 'mode: advise\n' } })
      .serve()
      .withoutGraphql();

    await h.app.deliver('pull_request', prEvent());

    expect(repo.checkRuns[0]?.conclusion).toBe('failure');
    expect(sticky(repo)).toContain("judged by the base branch's version");
    // Enforce mode is the base version's: the head's advise would have made the check neutral.
    expect(h.fake.calls('GET', `${REPO_PATH}/contents/${POLICY_FILE}`).map((r) => r.query.get('ref'))).toContain('b'.repeat(40));
  });

  it('a policy error shows on the check with file and line, annotated when the file is in the repo', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, 'mode: enforce\n_extends: platform/policies:gpu.yml\nheadroom: lots\n')).serve();
    repo.addTree({ owner: 'platform', repo: 'policies' }, 'HEAD', { 'gpu.yml': '# shared\nidleBelow: 2\n' });

    await h.app.deliver('pull_request', prEvent());

    const run = repo.checkRuns[0];
    expect(run?.output.annotations).toContainEqual(
      expect.objectContaining({ path: POLICY_FILE, start_line: 3, annotation_level: 'failure' }),
    );
    // A file in another repository cannot carry an annotation here; the summary names it.
    expect(run?.output.annotations).not.toContainEqual(expect.objectContaining({ path: 'platform/policies:gpu.yml' }));
    expect(run?.output.summary).toContain('`platform/policies:gpu.yml:2`');
    expect(run?.output.summary).toContain(`\`${POLICY_FILE}:3\``);
  });
});

describe('suggested changes', () => {
  // Two GPUs today, twelve asked, five needed: the suggestion is `nominalQuota: 5`.
  const partial = () => pullRequest({ baseFiles: { ...pullRequest().baseFiles, [QUEUE_FILE]: clusterQueue(2) } });
  const REVIEWS = /\/pulls\/\d+\/reviews$/;

  it('are posted as one review on the quota line of the head commit, kept on a re-run, replaced when the line changes', async () => {
    const repo = new FakeRepo(h.fake, partial()).serve();

    await h.app.deliver('pull_request', prEvent());

    expect(repo.reviews).toEqual([expect.objectContaining({ state: 'COMMENTED', commit_id: HEAD_SHA })]);
    expect(repo.reviewComments).toHaveLength(1);
    const [first] = repo.reviewComments;
    expect(first).toMatchObject({
      path: QUEUE_FILE,
      line: 17,
      side: 'RIGHT',
      commit_id: HEAD_SHA,
      pull_request_review_id: repo.reviews[0]?.id,
    });
    expect(first?.body).toContain('```suggestion\n              nominalQuota: 5\n```');
    // Check run created, then concluded before the comment is posted (a review without an
    // override concludes first; see post-review.ts), comment posted, one review.
    expect(writes(h.fake)).toEqual([
      `POST ${REPO_PATH}/check-runs`,
      `PATCH ${REPO_PATH}/check-runs/${repo.checkRuns[0]?.id}`,
      `POST ${REPO_PATH}/issues/${NUMBER}/comments`,
      `POST ${REPO_PATH}/pulls/${NUMBER}/reviews`,
    ]);

    // GitHub documents the body as required for a COMMENT review.
    expect(h.fake.calls('POST', REVIEWS)[0]?.body).toMatchObject({
      event: 'COMMENT',
      body: match.stringContaining('gpu-justify suggests a change'),
    });

    await h.app.deliver('pull_request', prEvent({ action: 'synchronize' }));
    expect(repo.reviewComments).toEqual([first]);
    expect(h.fake.calls('POST', REVIEWS)).toHaveLength(1);

    repo.push(NEWER_SHA, { ...repo.pr.headFiles, [QUEUE_FILE]: clusterQueue(10) });
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ commit_id: NEWER_SHA, line: 17 });
    expect(repo.reviewComments[0]?.body).toContain('nominalQuota: 5\n```');
    expect(h.fake.calls('DELETE', `${REPO_PATH}/pulls/comments/${first?.id}`)).toHaveLength(1);
    expect(h.fake.calls('POST', REVIEWS)).toHaveLength(2);

    const third = 'e'.repeat(40);
    repo.push(third, { ...repo.pr.headFiles, [QUEUE_FILE]: clusterQueue(5) });
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: third }));
    expect(repo.reviewComments).toEqual([]);
    // Nothing to suggest: no review, not even an empty one.
    expect(h.fake.calls('POST', REVIEWS)).toHaveLength(2);
    expect(h.fake.calls('POST', /\/pulls\/\d+\/comments$/)).toEqual([]);
  });

  const second = 'clusters/prod/team-b.yaml';
  const twoQueues = () => {
    const teamB = (gpus: number) => clusterQueue(gpus).replace('name: research', 'name: team-b');
    const catalog = `${pullRequest().baseFiles['gpu-workloads.yaml']}  - name: team-b-eval
    type: batch
    queue: team-b
    gpusPerJob: 2
    runtime: 2h
    jobsPerDay: 4
    window:
      earliestStart: "00:00"
      deadline: "06:00"
    interruptible: false
`;
    const base = { ...partial().baseFiles, [second]: teamB(2), 'gpu-workloads.yaml': catalog };
    const head = { ...partial().headFiles, [second]: teamB(12), 'gpu-workloads.yaml': catalog };
    return pullRequest({ baseFiles: base, headFiles: head });
  };

  it('for several queues go in one review', async () => {
    const repo = new FakeRepo(h.fake, twoQueues()).serve();

    await h.app.deliver('pull_request', prEvent());

    expect(h.fake.calls('POST', REVIEWS)).toHaveLength(1);
    expect(repo.reviews[0]?.comments.map((c) => c.path).sort()).toEqual([QUEUE_FILE, second].sort());
    expect(repo.reviewComments).toHaveLength(2);
    expect(writes(h.fake)).toHaveLength(4);
  });

  it('refused as one review, are tried one by one', async () => {
    const repo = new FakeRepo(h.fake, twoQueues()).serve();
    h.fake.fail('POST', `${REPO_PATH}/pulls/${NUMBER}/reviews`, { status: 422, body: { message: 'Validation Failed' } }, 2);

    await h.app.deliver('pull_request', prEvent());

    // The batch and the first suggestion alone are refused; the second gets through.
    expect(h.fake.calls('POST', REVIEWS).map((r) => (r.body as { comments: unknown[] }).comments.length)).toEqual([2, 1, 1]);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
  });

  it('are kept across a push that leaves the quota line as it was', async () => {
    const repo = new FakeRepo(h.fake, partial()).serve();
    await h.app.deliver('pull_request', prEvent());
    const [first] = repo.reviewComments;

    repo.push(NEWER_SHA, { ...repo.pr.headFiles, 'README.md': '# infra\nA note.\n' });
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));

    expect(repo.reviewComments).toEqual([first]);
    expect(h.fake.calls('POST', REVIEWS)).toHaveLength(1);
    expect(h.fake.calls('DELETE', /\/pulls\/comments\//)).toHaveLength(0);
  });

  it("leave a person's line comments alone, and a refused suggestion does not fail the review", async () => {
    const repo = new FakeRepo(h.fake, partial()).serve();
    const theirs = repo.addReviewComment({
      body: 'Why 12?',
      path: QUEUE_FILE,
      line: 17,
      commit_id: HEAD_SHA,
      user: { login: 'octocat', type: 'User' },
    });
    h.fake.on('POST', `${REPO_PATH}/pulls/${NUMBER}/reviews`, () => ({ status: 422, body: { message: 'Validation Failed' } }));

    await h.app.deliver('pull_request', prEvent());

    expect(repo.reviewComments).toEqual([theirs]);
    expect(h.fake.calls('POST', REVIEWS)).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(repo.checkRuns[0]?.output.title).not.toContain('could not run');
  });
});
