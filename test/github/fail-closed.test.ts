import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { ENFORCE_POLICY, POLICY_FILE, REPO_PATH, prEvent, pullRequest, useApp } from './app-harness.js';
import { CATALOG, MALFORMED_QUEUE, QUEUE_FILE, README, clusterQueue } from './scenarios.js';

/**
 * Enforce mode as a required check: every way a PR that may add GPUs could end `neutral` (which
 * GitHub counts as passing) ends `failure` instead, through the real App over signed webhooks.
 */

const h = useApp();

const ADVISE_POLICY = 'mode: advise\n';

/** The review's check run, once concluded (a busy machine can answer the webhook first). */
async function concluded(repo: FakeRepo) {
  // GitHub's webhook answer may come before a long review ends.
  await eventually(() => repo.checkRuns.at(-1)?.status === 'completed', { what: 'the check concluded', state: () => repo.checkRuns });
  return repo.checkRuns.at(-1)!;
}

describe('enforce mode never concludes neutral on a PR that may add GPUs', () => {
  it('an unreadable capacity file fails the check, saying what is missing, how to fix it and how to override', async () => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    pr.headFiles[QUEUE_FILE] = MALFORMED_QUEUE;
    const repo = new FakeRepo(h.fake, pr).serve();

    await h.app.deliver('pull_request', prEvent());

    const run = await concluded(repo);
    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toContain('To pass this check');
    expect(run.output.summary).toContain(`Fix \`${QUEUE_FILE}:8\`: YAML error`);
    // Said once: the missing item and the error it comes from are one fix.
    expect(run.output.summary?.split('To pass this check')[1]?.split(`${QUEUE_FILE}:8`).length).toBe(2);
    expect(run.output.summary).toContain('`/gpu-justify override <reason>`');
  });

  it('the same file in advise mode stays neutral', async () => {
    const pr = pullRequest({}, ADVISE_POLICY);
    pr.headFiles[QUEUE_FILE] = MALFORMED_QUEUE;
    const repo = new FakeRepo(h.fake, pr).serve();

    await h.app.deliver('pull_request', prEvent());

    expect((await concluded(repo)).conclusion).toBe('neutral');
  });

  it('a catalog the PR breaks fails the check', async () => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    pr.headFiles['gpu-workloads.yaml'] = 'workloads: [ {name: nightly-eval, queue: research\n';
    const repo = new FakeRepo(h.fake, pr).serve();

    await h.app.deliver('pull_request', prEvent());

    expect((await concluded(repo)).conclusion).toBe('failure');
  });

  it('a catalog the PR empties fails the check', async () => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    pr.headFiles['gpu-workloads.yaml'] = 'workloads: []\n';
    const repo = new FakeRepo(h.fake, pr).serve();

    await h.app.deliver('pull_request', prEvent());

    expect((await concluded(repo)).conclusion).toBe('failure');
  });

  it('a review that could not run fails the check in enforce mode, and is neutral in advise mode', async () => {
    const enforce = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    h.fake.fail('GET', `${REPO_PATH}/pulls/7/files`, { status: 500, body: { message: 'Server Error' } }, 5);
    await h.app.deliver('pull_request', prEvent());
    const failed = await concluded(enforce);
    expect(failed.conclusion).toBe('failure');
    expect(failed.output.title).toContain('could not run');
    expect(failed.output.summary).toContain('500 on GET');

    const advise = new FakeRepo(h.fake, pullRequest({}, ADVISE_POLICY)).serve();
    h.fake.fail('GET', `${REPO_PATH}/pulls/7/files`, { status: 500, body: { message: 'Server Error' } }, 5);
    await h.app.deliver('pull_request', prEvent());
    expect((await concluded(advise)).conclusion).toBe('neutral');
  });

  it('a review that fails before the policy is read fails closed', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ADVISE_POLICY)).serve().withoutGraphql();
    h.fake.fail('GET', `${REPO_PATH}/contents/${POLICY_FILE}`, { status: 500, body: { message: 'Server Error' } }, 5);

    await h.app.deliver('pull_request', prEvent());

    // The mode is unknown: it may be enforce, so the check must not pass.
    expect((await concluded(repo)).conclusion).toBe('failure');
  });
});

describe('an invalid policy fails closed', () => {
  it('`mode: enforse` runs as enforce, with the error first in the summary and the comment, and the value meant', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, 'mode: enforse\n')).serve();

    await h.app.deliver('pull_request', prEvent());

    const run = await concluded(repo);
    expect(run.conclusion).toBe('failure');
    const summary = run.output.summary ?? '';
    expect(summary.startsWith('**The gpu-justify policy is invalid: fix `.github/gpu-justify.yml` on ')).toBe(true);
    expect(summary).toContain('`.github/gpu-justify.yml:1`');
    expect(summary).toContain('must be one of advise, enforce');
    expect(summary).toContain('did you mean enforce?');
    const comment = repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
    const lines = comment.split('\n\n');
    // The marker, the headline, then the policy's errors.
    expect(lines[1]?.startsWith('### ')).toBe(true);
    expect(lines[2]).toContain('The gpu-justify policy is invalid');
  });

  it.each([
    ['a value out of range', 'mode: advise\nheadroom: 7\n'],
    ['an unknown key', 'mode: advise\nmodee: enforce\n'],
    ['broken YAML', 'mode: [advise\n'],
  ])('%s fails a PR that adds GPUs even though the file says advise', async (_name, policy) => {
    const repo = new FakeRepo(h.fake, pullRequest({}, policy)).serve();

    await h.app.deliver('pull_request', prEvent());

    const run = await concluded(repo);
    expect(run.conclusion).toBe('failure');
    expect(run.output.summary?.startsWith('**The gpu-justify policy is invalid')).toBe(true);
    // Wherever it fails, the fix lands on the base branch, not in the pull request.
    expect(run.output.summary).toMatch(/[Ff]ix `\.github\/gpu-justify\.yml` on /);
    expect(run.output.summary).toContain("this pull request's copy is not read");
  });

  it('does not block a PR that changes no GPUs, so the policy can be fixed', async () => {
    const pr = pullRequest({}, 'mode: enforse\n');
    pr.headFiles[QUEUE_FILE] = clusterQueue(6);
    pr.headFiles[POLICY_FILE] = 'mode: enforce\n';
    const repo = new FakeRepo(h.fake, pr).serve();

    await h.app.deliver('pull_request', prEvent());

    expect((await concluded(repo)).conclusion).toBe('success');
  });
});

describe('a list of changed files cut short', { timeout: 120_000 }, () => {
  /** A PR changing `extra` text files listed first (no parser reads them), and the queue after them, past GitHub's 3,000. */
  function largePullRequest(extra: number) {
    const docs = (text: string) =>
      Object.fromEntries(Array.from({ length: extra }, (_, i) => [`notes/page-${String(i).padStart(4, '0')}.txt`, text]));
    const pr = pullRequest({}, ENFORCE_POLICY);
    pr.baseFiles = {
      ...docs('old\n'),
      'README.md': README,
      'gpu-workloads.yaml': CATALOG,
      [POLICY_FILE]: ENFORCE_POLICY,
      [QUEUE_FILE]: clusterQueue(6),
    };
    pr.headFiles = {
      ...docs('new\n'),
      'README.md': README,
      'gpu-workloads.yaml': CATALOG,
      [POLICY_FILE]: ENFORCE_POLICY,
      [QUEUE_FILE]: clusterQueue(12),
    };
    return pr;
  }

  function event(changedFiles: number): Record<string, unknown> {
    const payload = prEvent();
    (payload.pull_request as { changed_files: number }).changed_files = changedFiles;
    return payload;
  }

  it('is completed from the trees: the capacity change past the 3,000th file is judged', async () => {
    const repo = new FakeRepo(h.fake, largePullRequest(3000)).serve();

    await h.app.deliver('pull_request', event(3001));

    const run = await concluded(repo);
    expect(h.fake.calls('GET', `${REPO_PATH}/pulls/7/files`).length).toBe(30);
    expect(run.output.title).toContain('not justified');
    expect(run.conclusion).toBe('failure');
  });

  it('when the trees cannot be compared either, is insufficient evidence, never "no GPU change"', async () => {
    const repo = new FakeRepo(h.fake, largePullRequest(3000)).serve();
    h.fake.fail('GET', /\/compare\//, { status: 404, body: { message: 'Not Found' } }, 5);

    await h.app.deliver('pull_request', event(3001));

    const run = await concluded(repo);
    expect(run.conclusion).toBe('failure');
    expect(run.output.title).toContain('Not enough evidence');
    expect(run.output.summary).toContain('the full list of changed files');
  });

  it('the cap reached with no count given is treated as cut short too', async () => {
    const repo = new FakeRepo(h.fake, largePullRequest(3000)).serve();
    const payload = prEvent();
    delete (payload.pull_request as { changed_files?: number }).changed_files;

    await h.app.deliver('pull_request', payload);

    expect((await concluded(repo)).output.title).toContain('not justified');
    expect(h.fake.calls('GET', /\/compare\//)).toHaveLength(1);
  });
});
