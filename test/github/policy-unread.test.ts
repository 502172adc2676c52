import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { HEAD_SHA, POLICY_FILE, commentEvent, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A policy that cannot be read is not "no policy": through the real App over signed webhooks, a
 * pull request that may add GPUs under a policy whose inherited part the App cannot read fails
 * (never neutral), the check naming the file and the access the App needs, and nobody may override
 * under it. A pull request that adds no GPUs still passes.
 */

const h = useApp();

const OWNER = EXAMPLE_REPO.owner;
const SHARED = { owner: OWNER, repo: 'policies' };
const SHARED_LABEL = `${OWNER}/policies:${POLICY_FILE}`;
const ORG = { owner: OWNER, repo: '.github' };
const ORG_LABEL = `${OWNER}/.github:${POLICY_FILE}`;
const INHERITED = 'mode: enforce\noverrides:\n  minPermission: admin\n';

/** Each way the shared file can fail to be read, as GitHub would show it. */
const FAULTS: { name: string; arrange: (repo: FakeRepo) => void; says: RegExp }[] = [
  {
    name: 'a repository outside the installation (404)',
    arrange: () => undefined,
    says: /GitHub answers 404 for \S+\/policies.*Contents: read/,
  },
  { name: 'a file that is not there', arrange: (repo) => repo.addTree(SHARED, 'HEAD', { 'README.md': '#\n' }), says: /does not exist/ },
  { name: 'a 403', arrange: (repo) => refuse(repo, 403), says: /refused the App \(403\).*Contents: read/ },
  { name: 'a 502 after retries', arrange: (repo) => refuse(repo, 502), says: /GitHub failed \(502\)/ },
  { name: 'invalid YAML', arrange: (repo) => repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: 'mode: [enforce\n' }), says: /invalid YAML/ },
  {
    name: 'a loop',
    arrange: (repo) => repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: `_extends: ${OWNER}/policies\n${INHERITED}` }),
    says: /loop/,
  },
  {
    name: 'a chain too long',
    arrange: (repo) => {
      repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: '_extends: p1\n' });
      for (let i = 1; i <= 6; i++) repo.addTree({ owner: OWNER, repo: `p${i}` }, 'HEAD', { [POLICY_FILE]: `_extends: p${i + 1}\n` });
    },
    says: /more than 5 files chained/,
  },
];

function refuse(repo: FakeRepo, status: number): void {
  repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: INHERITED });
  h.fake.fail('POST', '/graphql', { status, body: { message: 'no' } }, 20);
  h.fake.fail('GET', `/repos/${OWNER}/policies/contents/${POLICY_FILE}`, { status, body: { message: 'no' } }, 20);
}

/** The installation as GitHub describes it in its token: on every repository, or on selected ones. */
function installedOn(selection: 'all' | 'selected'): void {
  h.fake.on('POST', '/app/installations/:installation_id/access_tokens', () => ({
    status: 201,
    body: { token: 'ghs_selected', expires_at: new Date(Date.now() + 3_600_000).toISOString(), repository_selection: selection },
  }));
}

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

/** The review done: its check concluded and, unless it passes, our comment written. */
async function reviewed(repo: FakeRepo) {
  await h.app.deliver('pull_request', prEvent());
  await eventually(
    () => {
      const last = repo.checkRuns.at(-1);
      return last?.status === 'completed' && (last.conclusion === 'success' || ours(repo).includes(`blob/${HEAD_SHA}`));
    },
    { what: 'the review done', state: () => repo.checkRuns },
  );
  const run = repo.checkRuns.at(-1);
  if (!run) throw new Error('no check run');
  return run;
}

describe('an _extends the App cannot read', () => {
  it.each(FAULTS)('$name: a PR that adds GPUs fails, the check naming the file', async ({ arrange, says }) => {
    const repo = new FakeRepo(h.fake, pullRequest({}, `_extends: policies\nheadroom: 0.2\n`)).serve();
    arrange(repo);

    const run = await reviewed(repo);

    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toMatch(says);
    expect(run.output.summary).toContain('could not be read whole, so the policy is not known');
    expect(ours(repo)).toMatch(says);
  });

  it.each(FAULTS.slice(0, 3))('$name: nobody may override under it, whatever their role', async ({ arrange }) => {
    const repo = new FakeRepo(h.fake, pullRequest({}, `_extends: policies\n`)).serve();
    arrange(repo);
    repo.roles['maintainer'] = 'admin';
    await reviewed(repo);

    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override we need it', { login: 'maintainer', commentId: 801 }));
    await eventually(() => repo.comments.some((c) => !c.body.includes(COMMENT_MARKER)), { what: 'a reply to the command' });

    expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');
    const reply = repo.comments.find((c) => !c.body.includes(COMMENT_MARKER))?.body ?? '';
    expect(reply).toContain('the override was not accepted: the policy could not be read whole');
  });

  it('a PR that adds no GPUs still passes', async () => {
    const pr = pullRequest({}, `_extends: policies\n`);
    pr.headFiles[QUEUE_FILE] = clusterQueue(6);
    pr.headFiles['README.md'] = '# infra, edited\n';
    const repo = new FakeRepo(h.fake, pr).serve();

    expect((await reviewed(repo)).conclusion).toBe('success');
  });

  it('read whole, the inherited enforce mode applies', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, `_extends: policies\n`)).serve();
    repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: INHERITED });

    const run = await reviewed(repo);

    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).not.toContain(SHARED_LABEL);
  });
});

describe("the organisation's .github repository, for a repository without a policy", () => {
  it('an installation on selected repositories that cannot see it fails closed, saying what access it needs', async () => {
    installedOn('selected');
    const repo = new FakeRepo(h.fake, pullRequest()).serve();

    const run = await reviewed(repo);

    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toContain(ORG_LABEL);
    expect(run.output.summary).toMatch(/add \S+\/\.github to the App's installation \(repository permission Contents: read\)/);
  });

  it('an installation on every repository knows it is not there: the defaults, advise mode', async () => {
    installedOn('all');
    const repo = new FakeRepo(h.fake, pullRequest()).serve();

    expect((await reviewed(repo)).conclusion).toBe('neutral');
  });

  it('one it sees without a policy: the defaults, advise mode', async () => {
    installedOn('selected');
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    repo.addTree(ORG, 'HEAD', { 'profile/README.md': '# acme\n' });

    expect((await reviewed(repo)).conclusion).toBe('neutral');
  });

  it('one it sees with an enforce policy: enforce mode', async () => {
    installedOn('selected');
    const repo = new FakeRepo(h.fake, pullRequest()).serve();
    repo.addTree(ORG, 'HEAD', { [POLICY_FILE]: 'mode: enforce\n' });

    expect((await reviewed(repo)).conclusion).toBe('failure');
  });
});
