import { describe, expect, it } from 'vitest';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { AppServer, WEBHOOK_SECRET } from '../helpers/app-server.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { mergeGroupPayload } from '../helpers/payloads.js';
import {
  ENFORCE_POLICY,
  HEAD_SHA,
  INSTALLATION,
  NEWER_SHA,
  NUMBER,
  POLICY_FILE,
  commentEvent,
  prEvent,
  pullRequest,
  useApp,
  witnessFor,
} from './app-harness.js';
import { CATALOG, QUEUE_FILE, README, clusterQueue } from './scenarios.js';

const h = useApp();

/** The base branch's tip when the group was made, and the group's head commit on it. */
const GROUP_BASE = 'e'.repeat(40);
const GROUP_HEAD = 'f'.repeat(40);

/** The base branch at the group's base: the PR's base, with a docs edit merged since. */
function groupBase(gpus = 6): Record<string, string> {
  return {
    [QUEUE_FILE]: clusterQueue(gpus),
    'gpu-workloads.yaml': CATALOG,
    'README.md': `${README}\nMore docs.\n`,
    [POLICY_FILE]: ENFORCE_POLICY,
  };
}

function groupDelivery(over: { headRef?: string } = {}): Record<string, unknown> {
  return mergeGroupPayload({ installationId: INSTALLATION, number: NUMBER, baseSha: GROUP_BASE, headSha: GROUP_HEAD, ...over });
}

const groupChecks = (repo: FakeRepo) => repo.checkRuns.filter((r) => r.head_sha === GROUP_HEAD);

/** A PR raising the queue 6 → 12 in enforce mode, reviewed (failing), overridden by a maintainer when asked. */
async function reviewedPull(override: boolean): Promise<FakeRepo> {
  const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
  repo.roles.maintainer = 'maintain';
  await h.app.deliver('pull_request', prEvent());
  expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');
  if (override) {
    await h.app.deliver('issue_comment', commentEvent('/gpu-justify override launch week', { login: 'maintainer', commentId: 77 }));
    expect(repo.checkRuns.at(-1)).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'success' });
  }
  return repo;
}

describe('merge queue (merge_group.checks_requested)', () => {
  it('carries the pull request verdict to a group that changes the same capacity', async () => {
    const repo = await reviewedPull(false);
    repo.addMergeGroup(GROUP_BASE, groupBase(), GROUP_HEAD, { ...groupBase(), [QUEUE_FILE]: clusterQueue(12) });

    const res = await h.app.deliver('merge_group', groupDelivery());

    expect(res.status).toBe(200);
    const [run, ...more] = groupChecks(repo);
    expect(more).toEqual([]);
    expect(run).toMatchObject({ name: 'gpu-justify', status: 'completed', conclusion: 'failure' });
    expect(run?.output.summary).toContain(`same GPU capacity as pull request #${NUMBER}`);
  });

  it('a named instance carries its own verdict, from its own comment and check, under its own check name', async () => {
    const staging = await AppServer.start(createGpuJustifyApp({ stateSecret: WEBHOOK_SECRET, instance: 'staging' }), h.fake.url, {
      witness: witnessFor(h.fake),
    });
    try {
      const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
      await staging.deliver('pull_request', prEvent());
      expect(repo.checkRuns.at(-1)).toMatchObject({ name: 'gpu-justify (staging)', conclusion: 'failure' });
      repo.addMergeGroup(GROUP_BASE, groupBase(), GROUP_HEAD, { ...groupBase(), [QUEUE_FILE]: clusterQueue(12) });

      await staging.deliver('merge_group', groupDelivery());

      const [run, ...more] = groupChecks(repo);
      expect(more).toEqual([]);
      expect(run).toMatchObject({ name: 'gpu-justify (staging)', status: 'completed', conclusion: 'failure' });
      expect(run?.output.summary).toContain(`same GPU capacity as pull request #${NUMBER}`);
    } finally {
      await staging.close();
    }
  });

  it('carries an override granted on the pull request only while the group changes the same capacity', async () => {
    const repo = await reviewedPull(true);
    repo.addMergeGroup(GROUP_BASE, groupBase(), GROUP_HEAD, { ...groupBase(), [QUEUE_FILE]: clusterQueue(12) });
    await h.app.deliver('merge_group', groupDelivery());
    expect(groupChecks(repo)[0]).toMatchObject({ conclusion: 'success' });
    expect(groupChecks(repo)[0]?.output.title).toMatch(/^Overridden by @maintainer/);
  });

  it('reviews a group whose capacity differs (another queued PR raised it too), override not carried', async () => {
    const repo = await reviewedPull(true);
    // The group holds this PR's 6 → 12 and an earlier PR's 12 → 16: the group adds 10 GPUs.
    repo.addMergeGroup(GROUP_BASE, groupBase(), GROUP_HEAD, { ...groupBase(), [QUEUE_FILE]: clusterQueue(16) });

    await h.app.deliver('merge_group', groupDelivery());

    const [run] = groupChecks(repo);
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(run?.output.summary).toContain('reviewed whole');
    expect(run?.output.summary).toContain('differs');
    expect(run?.output.title).not.toMatch(/Overridden/);
  });

  it('reviews a group whose base moved with other capacity, though the PR edits the same lines', async () => {
    const repo = await reviewedPull(true);
    // The base branch raised the queue to 8 since the PR was reviewed: the group's change is 8 → 12.
    repo.addMergeGroup(GROUP_BASE, groupBase(8), GROUP_HEAD, { ...groupBase(8), [QUEUE_FILE]: clusterQueue(12) });
    await h.app.deliver('merge_group', groupDelivery());
    const [run] = groupChecks(repo);
    expect(run).toMatchObject({ conclusion: 'failure' });
    expect(run?.output.summary).toContain('reviewed whole');
  });

  it('reviews the group when the PR head moved past the reviewed one', async () => {
    const repo = await reviewedPull(true);
    repo.currentHeadSha = NEWER_SHA;
    repo.addMergeGroup(GROUP_BASE, groupBase(), GROUP_HEAD, { ...groupBase(), [QUEUE_FILE]: clusterQueue(12) });
    await h.app.deliver('merge_group', groupDelivery());
    const [run] = groupChecks(repo);
    expect(run).toMatchObject({ conclusion: 'failure' });
    expect(run?.output.summary).toContain('no verified verdict');
  });

  it('without a verdict of ours on the PR, reviews the group and never passes it', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    // Another app's passing check of the same name, and a comment of ours' shape written by someone else.
    repo.checkRuns.push({
      id: 1,
      head_sha: HEAD_SHA,
      name: 'gpu-justify',
      history: [],
      status: 'completed',
      conclusion: 'success',
      external_id: '',
      output: { title: 'All good', summary: 'trust me', annotations: [] },
      app: 'github-actions',
    });
    repo.addComment(`${COMMENT_MARKER}\nlooks fine`, 'Bot', 'github-actions[bot]');
    repo.addMergeGroup(GROUP_BASE, groupBase(), GROUP_HEAD, { ...groupBase(), [QUEUE_FILE]: clusterQueue(12) });

    await h.app.deliver('merge_group', groupDelivery());

    const [run] = groupChecks(repo);
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(run?.output.summary).toContain('no verified verdict');
  });

  it('passes a group that changes no GPU capacity on its own review', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    repo.addMergeGroup(GROUP_BASE, groupBase(), GROUP_HEAD, { ...groupBase(), 'README.md': 'Rewritten.\n' });
    await h.app.deliver('merge_group', groupDelivery());
    const [run] = groupChecks(repo);
    expect(run).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(run?.output.summary).toContain('reviewed whole');
  });

  it('fails closed on a group whose branch names no pull request', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, ENFORCE_POLICY)).serve();
    repo.addMergeGroup(GROUP_BASE, groupBase(), GROUP_HEAD, { ...groupBase(), [QUEUE_FILE]: clusterQueue(12) });
    await h.app.deliver('merge_group', groupDelivery({ headRef: 'refs/heads/gh-readonly-queue/main/not-a-pull' }));
    expect(groupChecks(repo)).toMatchObject([
      { status: 'completed', conclusion: 'failure', output: { title: 'gpu-justify could not run' } },
    ]);
  });
});
