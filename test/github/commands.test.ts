import { describe, expect, it } from 'vitest';
import { parseOverrideMarkers } from '../../src/github/overrides/override.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { ENFORCE_POLICY, HEAD_SHA, NEWER_SHA, REPO_PATH, commentEvent, prEvent, pullRequest, useApp, writes } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

const h = useApp();

const replies = (repo: FakeRepo) => repo.comments.filter((c) => !c.body.includes(COMMENT_MARKER));
const sticky = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER));

describe('slash commands', () => {
  it('/gpu-justify re-runs the review, acknowledged with 👀', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    const command = repo.addComment('/gpu-justify', 'User');

    const res = await h.app.deliver('issue_comment', commentEvent('/gpu-justify', { commentId: command.id }));

    expect(res.status).toBe(200);
    expect(repo.reactions).toEqual([{ commentId: command.id, content: 'eyes' }]);
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ head_sha: HEAD_SHA, status: 'completed' });
    expect(sticky(repo)).toBeDefined();
  });

  it('help lists the commands; an unknown one gets the list and no 👀', async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify HELP', { commentId: 501 }));
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify approve please', { commentId: 502 }));

    expect(repo.reactions).toEqual([{ commentId: 501, content: 'eyes' }]);
    const [help, unknown] = replies(repo);
    for (const reply of [help, unknown]) {
      for (const usage of ['`/gpu-justify`', '`/gpu-justify explain`', '`/gpu-justify override <reason>`', '`/gpu-justify help`']) {
        expect(reply?.body).toContain(usage);
      }
    }
    expect(unknown?.body).toContain('@octocat `/gpu-justify approve please`: unknown command');
    expect(repo.checkRuns).toEqual([]);
  });

  it("explain replies with every change's evidence and the plan, and changes no check", async () => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify explain', { commentId: 9 }));

    const [reply, ...more] = replies(repo);
    expect(more).toEqual([]);
    expect(reply?.body).toContain(`\`${QUEUE_FILE}:`);
    expect(reply?.body).toContain('GPUs: 6 → 12 (+6)');
    expect(reply?.body).toContain('Stagger plan: peak');
    expect(reply?.body).toContain('`nightly-eval`');
    expect(reply?.body).toMatch(/catalog: `gpu-workloads\.yaml:\d+`/);
    expect(reply?.body.length).toBeLessThan(65_536);
    expect(repo.checkRuns).toEqual([]);
    expect(repo.reactions).toHaveLength(1);
  });

  it('ignores commands from bots, quoted commands, issues and edits', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    repo.roles.maintainer = 'maintain';

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify', { login: 'gpu-justify[bot]', userType: 'Bot' }));
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify', { login: 'renovate[bot]', userType: 'User' }));
    await h.app.deliver('issue_comment', commentEvent('> /gpu-justify override ship it\n\nAgreed!', { login: 'maintainer' }));
    await h.app.deliver('issue_comment', commentEvent('```\n/gpu-justify override ship it\n```', { login: 'maintainer' }));
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify', { issueOnly: true }));
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override ship it', { login: 'maintainer', action: 'edited' }));

    expect(h.fake.requests).toEqual([]);
  });
});

describe('/gpu-justify override', () => {
  it('by a maintainer turns the failing check to success, recorded in comment and check', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    repo.roles.maintainer = 'maintain';
    await h.app.deliver('pull_request', prEvent());
    expect(repo.checkRuns[0]?.conclusion).toBe('failure');

    await h.app.deliver(
      'issue_comment',
      commentEvent('/gpu-justify override launch week, capacity reviewed by SRE', { login: 'maintainer', commentId: 77 }),
    );

    expect(repo.reactions).toEqual([{ commentId: 77, content: 'eyes' }]);
    const run = repo.checkRuns[1];
    expect(run).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'success' });
    expect(run?.output.title).toMatch(/^Overridden by @maintainer/);
    expect(run?.output.summary).toContain('launch week, capacity reviewed by SRE');
    expect(run?.output.summary).toContain(HEAD_SHA.slice(0, 12));
    expect(run?.output.summary).toMatch(/at \d{4}-\d\d-\d\dT/);
    const body = sticky(repo)?.body ?? '';
    expect(body).toContain('**Overridden** by @maintainer');
    expect(body).toContain('<!-- gpu-justify:override {');
    expect(replies(repo)).toEqual([]);
    expect(h.fake.calls('GET', `${REPO_PATH}/collaborators/maintainer/permission`)).toHaveLength(1);
  });

  it('holds while new commits leave the GPU request alone, and lapses when they change it', async () => {
    const state = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, state).serve();
    repo.roles.maintainer = 'admin';
    await h.app.deliver('pull_request', prEvent());
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override launch week', { login: 'maintainer' }));
    expect(repo.checkRuns[1]?.conclusion).toBe('success');

    repo.push(NEWER_SHA, { ...state.headFiles, 'README.md': '# infra\nNotes.\n' });
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    expect(repo.checkRuns[2]).toMatchObject({ head_sha: NEWER_SHA, conclusion: 'success' });
    expect(sticky(repo)?.body).toContain('**Overridden** by @maintainer');

    const third = 'e'.repeat(40);
    repo.push(third, { ...state.headFiles, [QUEUE_FILE]: clusterQueue(16) });
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: third }));
    expect(repo.checkRuns[3]).toMatchObject({ head_sha: third, conclusion: 'failure' });
    expect(sticky(repo)?.body).not.toContain('Overridden');
    expect(sticky(repo)?.body).not.toContain('gpu-justify:override');
  });

  it('by a member of a listed team is accepted though their role is read', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    repo.roles.teamie = 'read';
    repo.teams['gpu-admins'] = ['teamie'];
    await h.app.deliver('pull_request', prEvent());

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override approved in capacity review', { login: 'teamie' }));

    expect(repo.checkRuns[1]?.conclusion).toBe('success');
    expect(h.fake.calls('GET', '/orgs/Codertocat/teams/gpu-admins/memberships/teamie')).toHaveLength(1);
  });

  it('is refused for a read-only user, with a reply saying why and nothing else changed', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    repo.roles.reader = 'read';
    repo.roles.triager = 'triage';

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override trust me', { login: 'reader', commentId: 1 }));
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override trust me', { login: 'triager', commentId: 2 }));
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override trust me', { login: 'stranger', commentId: 3 }));

    expect(repo.checkRuns).toEqual([]);
    expect(sticky(repo)).toBeUndefined();
    const bodies = replies(repo).map((c) => c.body);
    expect(bodies).toHaveLength(3);
    expect(bodies[0]).toContain(
      '@reader the override was not accepted: overriding needs maintain permission on this repository or membership of @Codertocat/gpu-admins; @reader has read',
    );
    expect(bodies[1]).toContain('@triager has triage');
    expect(bodies[2]).toContain('@stranger has none');
    expect(writes(h.fake).filter((w) => !w.endsWith('/reactions') && !w.endsWith(`/issues/7/comments`))).toEqual([]);
  });

  it('is refused for the PR author without allowAuthor, even an admin, and when the PR itself grants allowAuthor', async () => {
    const state = pullRequest({ author: 'alice' }, ENFORCE_POLICY);
    // The pull request edits the policy to let its author override: the base version decides.
    const repo = new FakeRepo(h.fake, {
      ...state,
      headFiles: { ...state.headFiles, '.github/gpu-justify.yml': `${ENFORCE_POLICY}  allowAuthor: true\n` },
    }).serve();
    repo.roles.alice = 'admin';

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override my own PR is fine', { login: 'alice' }));

    expect(repo.checkRuns).toEqual([]);
    expect(replies(repo)[0]?.body).toContain('the policy does not let the pull request author override their own pull request');
  });

  it('is accepted for the PR author when the base policy has allowAuthor', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({ author: 'alice' }, `${ENFORCE_POLICY}  allowAuthor: true\n`)).serve();
    await h.app.deliver('pull_request', prEvent());

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override demo day', { login: 'alice' }));

    expect(repo.checkRuns[1]?.conclusion).toBe('success');
    expect(h.fake.calls('GET', /\/collaborators\//)).toEqual([]);
  });

  it('cannot be forged by a person pasting our comment, override record included', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    repo.roles.maintainer = 'maintain';
    await h.app.deliver('pull_request', prEvent());
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override real one', { login: 'maintainer' }));
    const genuine = sticky(repo)?.body ?? '';
    expect(parseOverrideMarkers(genuine)[0]?.by).toBe('maintainer');
    // Our comment is gone; a person posts a copy of it, record and all.
    repo.comments.length = 0;
    repo.addComment(genuine, 'User');

    await h.app.deliver('pull_request', prEvent({ action: 'reopened' }));

    expect(repo.checkRuns[2]?.conclusion).toBe('failure');
    expect(repo.checkRuns[2]?.output.title).not.toContain('Overridden');
  });

  it('on a check that passes anyway records nothing and says so', async () => {
    const state = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, { ...state, headFiles: { ...state.baseFiles, 'README.md': 'changed\n' } }).serve();
    repo.roles.maintainer = 'maintain';

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override just in case', { login: 'maintainer' }));

    expect(repo.checkRuns[0]?.conclusion).toBe('success');
    expect(repo.checkRuns[0]?.output.title).not.toContain('Overridden');
    expect(replies(repo)[0]?.body).toContain('the check passes on its own');
  });
});
