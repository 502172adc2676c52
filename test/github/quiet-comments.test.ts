import { describe, expect, it } from 'vitest';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { SUGGESTION_MARKER } from '../../src/github/publish/suggestions.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { AppServer, WEBHOOK_SECRET } from '../helpers/app-server.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { ENFORCE_POLICY, HEAD_SHA, NEWER_SHA, commentEvent, prEvent, pullRequest, useApp, witnessFor } from './app-harness.js';
import { README } from './scenarios.js';

const h = useApp();

const sticky = (repo: FakeRepo) => repo.comments.filter((c) => c.body.includes(COMMENT_MARKER));
const suggestions = (repo: FakeRepo) => repo.reviewComments.filter((c) => c.body.includes(SUGGESTION_MARKER));

/** A pull request that touches no GPU: only the README changes. */
function noGpuChange(policy: string) {
  const state = pullRequest({}, policy);
  return { ...state, headFiles: { ...state.baseFiles, 'README.md': `${README}\nMore notes.\n` } };
}

describe('policy comment: when the review comments', () => {
  it.each([
    ['changes', false, true],
    ['always', true, true],
    ['never', false, false],
  ] as const)('comment: %s — no GPU change commented: %s, a GPU change: %s', async (when, onNone, onChange) => {
    const quiet = new FakeRepo(h.fake, { ...noGpuChange(`comment: ${when}\n`), number: 8 }).serve();
    await h.app.deliver('pull_request', prEvent({ number: 8 }));
    expect(quiet.checkRuns).toHaveLength(1);
    expect(quiet.checkRuns[0]).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'success' });
    expect(sticky(quiet)).toHaveLength(onNone ? 1 : 0);

    const grows = new FakeRepo(h.fake, pullRequest({}, `mode: enforce\ncomment: ${when}\n`)).serve();
    await h.app.deliver('pull_request', prEvent());
    expect(grows.checkRuns[0]).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'failure' });
    expect(sticky(grows)).toHaveLength(onChange ? 1 : 0);
    // Suggested changes are comments too: none under `never`.
    if (!onChange) expect(suggestions(grows)).toEqual([]);
    else expect(suggestions(grows).length).toBeGreaterThan(0);
  });

  it('never: a command still gets its reply; an override asked for writes the comment it binds to, and is kept there', async () => {
    const state = pullRequest({}, `${ENFORCE_POLICY}comment: never\n`);
    const repo = new FakeRepo(h.fake, state).serve();
    repo.roles.maintainer = 'maintain';
    await h.app.deliver('pull_request', prEvent());
    expect(repo.checkRuns[0]?.conclusion).toBe('failure');
    expect(repo.comments).toEqual([]);

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify explain', { commentId: 5 }));
    expect(repo.comments.filter((c) => c.body.includes('The evidence behind'))).toHaveLength(1);
    expect(sticky(repo)).toEqual([]);

    // Nothing was shown to approve: refused, and the review is now written for the grantor to read.
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override launch week', { login: 'maintainer', commentId: 76 }));
    expect(repo.checkRuns.at(-1)).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'failure' });
    expect(repo.comments.at(-1)?.body).toContain('the override was not recorded: no review of this GPU request had been posted');
    expect(sticky(repo)).toHaveLength(1);
    expect(sticky(repo)[0]?.body).not.toContain('gpu-justify:override');

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override launch week', { login: 'maintainer', commentId: 77 }));
    expect(repo.checkRuns.at(-1)).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'success' });
    expect(sticky(repo)).toHaveLength(1);
    expect(sticky(repo)[0]?.body).toContain('<!-- gpu-justify:override {');

    // The grant lives in that comment: a later push that leaves the GPUs alone keeps it.
    repo.push(NEWER_SHA, { ...state.headFiles, 'README.md': '# infra\nNotes.\n' });
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    expect(repo.checkRuns.at(-1)).toMatchObject({ head_sha: NEWER_SHA, conclusion: 'success' });
    expect(sticky(repo)).toHaveLength(1);
    expect(sticky(repo)[0]?.body).toContain('**Overridden** by @maintainer');
  });
});

describe('instance namespace', () => {
  it('two instances under one login keep separate comments, suggestions and checks on one PR', async () => {
    const staging = await AppServer.start(createGpuJustifyApp({ stateSecret: WEBHOOK_SECRET, instance: 'staging' }), h.fake.url, {
      witness: witnessFor(h.fake),
    });
    try {
      const state = pullRequest({}, 'mode: enforce\n');
      const repo = new FakeRepo(h.fake, state).serve();
      await h.app.deliver('pull_request', prEvent());
      await staging.deliver('pull_request', prEvent());
      // A new push: each reviews again, and finds and edits its own comment, never the other's.
      repo.push(NEWER_SHA, { ...state.headFiles, 'README.md': '# infra\nNotes.\n' });
      await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
      await staging.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));

      const unnamed = repo.comments.filter((c) => c.body.startsWith(`${COMMENT_MARKER}\n`));
      const named = repo.comments.filter((c) => c.body.startsWith('<!-- gpu-justify:comment:staging -->\n'));
      expect(unnamed).toHaveLength(1);
      expect(named).toHaveLength(1);
      expect(repo.comments).toHaveLength(2);
      expect(named[0]?.body).not.toContain(COMMENT_MARKER);
      for (const c of [...unnamed, ...named]) expect(c.body).toContain(NEWER_SHA.slice(0, 12));

      expect(repo.checkRuns.filter((r) => r.name === 'gpu-justify')).toHaveLength(2);
      expect(repo.checkRuns.filter((r) => r.name === 'gpu-justify (staging)')).toHaveLength(2);

      const mine = repo.reviewComments.filter((c) => c.body.startsWith(SUGGESTION_MARKER));
      const theirs = repo.reviewComments.filter((c) => c.body.startsWith('<!-- gpu-justify:suggestion:staging -->'));
      expect(mine.length).toBeGreaterThan(0);
      expect(theirs).toHaveLength(mine.length);
    } finally {
      await staging.close();
    }
  });

  it.each(['Staging', 'a_b', '-x', 'x-', 'a'.repeat(33), 'prod env', 'x-->'])('refuses the instance name %j when the App loads', (name) => {
    expect(() => createGpuJustifyApp({ stateSecret: WEBHOOK_SECRET, instance: name })(null as never)).toThrow(/GPU_JUSTIFY_INSTANCE/);
  });
});
