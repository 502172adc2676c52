import { describe, expect, it } from 'vitest';
import { parseOverrideMarkers } from '../../src/github/overrides/override.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { checkRunPayload } from '../helpers/payloads.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';
import { ENFORCE_POLICY, HEAD_SHA, INSTALLATION, NEWER_SHA, NUMBER, REPO_PATH, commentEvent, prEvent, pullRequest } from './app-harness.js';
import { recordConclusions, useReplicas } from './replica-harness.js';

/**
 * An override granted on one replica while the other reviews the same head without it: the
 * plain review read our comment before the grant was written, yet the override must survive in
 * the comment and in the check run concluded last on that head.
 */

const h = useReplicas();

const COMMENTS = `${REPO_PATH}/issues/${NUMBER}/comments`;
const ONE_COMMENT = new RegExp(`^${REPO_PATH}/issues/comments/\\d+$`);
const ONE_CHECK_RUN = new RegExp(`^${REPO_PATH}/check-runs/\\d+$`);
const OVERRIDE = '/gpu-justify override the quarterly eval needs it';

function setUp(): { repo: FakeRepo; conclusions: number[]; headFiles: Record<string, string> } {
  const conclusions = recordConclusions(h.fake);
  const state = pullRequest({}, ENFORCE_POLICY);
  const repo = new FakeRepo(h.fake, state).serve();
  repo.roles.maintainer = 'maintain';
  return { repo, conclusions, headFiles: state.headFiles };
}

function sticky(repo: FakeRepo) {
  const marked = repo.comments.filter((c) => c.body.includes(COMMENT_MARKER));
  expect(marked).toHaveLength(1);
  return marked[0]?.body ?? '';
}

/** The check run on `sha` whose conclusion was applied last: what branch protection goes by. */
function lastConcluded(repo: FakeRepo, conclusions: number[], sha: string) {
  const onHead = conclusions.filter((id) => repo.checkRuns.find((r) => r.id === id)?.head_sha === sha);
  return repo.checkRuns.find((r) => r.id === onHead.at(-1));
}

function expectOverridden(repo: FakeRepo, conclusions: number[], sha: string): void {
  expect(parseOverrideMarkers(sticky(repo))[0]).toMatchObject({ by: 'maintainer', reason: 'the quarterly eval needs it' });
  const last = lastConcluded(repo, conclusions, sha);
  expect(last).toMatchObject({ head_sha: sha, status: 'completed', conclusion: 'success' });
  expect(last?.output.title).toMatch(/^Overridden by @maintainer: /);
  expect(last?.output.summary).toContain('the quarterly eval needs it');
}

describe('an override granted while the other replica reviews the same head', () => {
  it('is kept when the re-run read the comment before the grant and concludes after it', async () => {
    const { repo, conclusions } = setUp();
    await h.app.deliver('pull_request', prEvent());
    expect(repo.checkRuns[0]?.conclusion).toBe('failure');

    // The re-run has read our comment (no override yet) and is concluding its check; that
    // conclusion is applied only after the grant's.
    const before = h.fake.calls('PATCH', ONE_CHECK_RUN).length;
    const held = h.fake.hold('PATCH', ONE_CHECK_RUN, h.fake.answered('PATCH', ONE_CHECK_RUN, before + 1));
    const rerun = h.other.deliver('check_run', checkRunPayload({ installationId: INSTALLATION, headSha: HEAD_SHA, pullNumbers: [NUMBER] }));
    const rerunCheck = await held.arrived;
    await Promise.all([h.app.deliver('issue_comment', commentEvent(OVERRIDE, { login: 'maintainer' })), rerun]);

    expectOverridden(repo, conclusions, HEAD_SHA);
    // The re-run's own check run, concluded failing first, was concluded again with the override.
    const own = repo.checkRuns.find((r) => r.id === Number(rerunCheck.path.split('/').pop()));
    expect(own).toMatchObject({ conclusion: 'success' });
    expect(own?.history.filter((u) => u.conclusion !== undefined).map((u) => u.conclusion)).toEqual(['failure', 'success']);
    // Only the grant wrote the comment: the re-run, adopting the same record, had nothing to change.
    expect(h.fake.calls('PATCH', ONE_COMMENT)).toHaveLength(1);
  });

  it('is written again when the plain review’s comment lands over it', async () => {
    const { repo, conclusions, headFiles } = setUp();
    await h.app.deliver('pull_request', prEvent());
    // A push that leaves the GPU request alone: both reviews of it have new text to write.
    repo.push(NEWER_SHA, { ...headFiles, 'README.md': '# infra\nNotes.\n' });

    // The plain review has read our comment and is writing it; the write lands right after the
    // grant's.
    const held = h.fake.hold('PATCH', ONE_COMMENT, h.fake.answered('PATCH', ONE_COMMENT, 1));
    const synchronized = h.other.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    await held.arrived;
    await Promise.all([h.app.deliver('issue_comment', commentEvent(OVERRIDE, { login: 'maintainer' })), synchronized]);

    expectOverridden(repo, conclusions, NEWER_SHA);
    expect(sticky(repo)).toContain(`blob/${NEWER_SHA}`);
    // The cost of the race: the grant's comment written twice. In the order the writes arrived:
    // the plain review's (held), the grant's, the grant's again after it found the comment plain.
    const writes = h.fake.calls('PATCH', ONE_COMMENT).map((r) => parseOverrideMarkers((r.body as { body: string }).body).length > 0);
    expect(writes).toEqual([false, true, true]);
  });

  it('grants nothing when sent before our comment showed the request, though both review at once', async () => {
    const { repo } = setUp();
    // The command is written while the first review is creating our comment: its author cannot
    // have seen what the review judged.
    const held = h.fake.hold('POST', COMMENTS, h.fake.answered('POST', COMMENTS, 1));
    const opened = h.app.deliver('pull_request', prEvent());
    await held.arrived;
    const command = commentEvent(OVERRIDE, { login: 'maintainer', createdAt: new Date(Date.now() - 1_000).toISOString() });
    await Promise.all([h.other.deliver('issue_comment', command), opened]);

    expect(sticky(repo)).not.toContain('gpu-justify:override');
    expect(repo.checkRuns.map((r) => r.conclusion)).toEqual(['failure', 'failure']);
    const reply = repo.comments.find((c) => c.body.includes('the override was not recorded'));
    expect(reply?.body).toMatch(/no review of this GPU request had been posted|the review changed after the one you commented on/);
  });

  it('is not adopted by a review of a push that grows the GPU request', async () => {
    const { repo, conclusions, headFiles } = setUp();
    await h.app.deliver('pull_request', prEvent());

    // The grant for the old head writes its comment between the new head's first look at the
    // comment and its second one, after concluding.
    const before = h.fake.calls('PATCH', ONE_CHECK_RUN).length;
    const held = h.fake.hold('PATCH', ONE_COMMENT, h.fake.answered('PATCH', ONE_CHECK_RUN, before + 1));
    const granted = h.app.deliver('issue_comment', commentEvent(OVERRIDE, { login: 'maintainer' }));
    await held.arrived;
    repo.push(NEWER_SHA, { ...headFiles, [QUEUE_FILE]: clusterQueue(16) });
    await Promise.all([h.other.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA })), granted]);

    // The grant was written, for the old request…
    expect(parseOverrideMarkers((h.fake.calls('PATCH', ONE_COMMENT)[0]?.body as { body: string }).body)[0]).toMatchObject({
      headSha: HEAD_SHA,
    });
    // …and the new head's review, which saw it, neither kept nor concluded with it.
    const body = sticky(repo);
    expect(body).toContain(`blob/${NEWER_SHA}`);
    expect(body).not.toContain('gpu-justify:override');
    const newer = repo.checkRuns.filter((r) => r.head_sha === NEWER_SHA);
    expect(newer.map((r) => r.conclusion)).toEqual(['failure']);
    expect(lastConcluded(repo, conclusions, NEWER_SHA)?.output.title).not.toContain('Overridden');
  });
});
