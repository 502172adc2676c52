import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Output } from '../../src/cli/output.js';
import { runMergeGroupAction } from '../../src/action/merge-group.js';
import { runAction } from '../../src/action/run.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { mergeGroupPayload, pullRequestPayload } from '../helpers/payloads.js';
import { BASE_SHA, ENFORCE_POLICY, HEAD_SHA, NUMBER, POLICY_FILE, pullRequest } from './app-harness.js';
import { CATALOG, QUEUE_FILE, README, clusterQueue } from './scenarios.js';

/**
 * The Action on `merge_group`: the check on the group's head is concluded as the App concludes it
 * (src/github/review-merge-group.ts): the pull request's verdict where the group is what our
 * signed comment shows, the group reviewed whole anywhere else, and the job failing with it.
 */

const TOKEN = 'ghs_actionTestToken0000000000000000000000';
const SECRET = 'a-state-secret-for-the-action-0123456789';
const GROUP_BASE = 'e'.repeat(40);
const GROUP_HEAD = 'f'.repeat(40);
const noTelemetry = () => undefined;
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {}, trace: () => {}, fatal: () => {} } as never;

function groupFiles(gpus: number): Record<string, string> {
  return {
    [QUEUE_FILE]: clusterQueue(gpus),
    'gpu-workloads.yaml': CATALOG,
    'README.md': `${README}\nMore docs.\n`,
    [POLICY_FILE]: ENFORCE_POLICY,
  };
}

describe('the GitHub Action on a merge group', () => {
  let fake: FakeGitHub;
  let dir: string;

  beforeEach(async () => {
    fake = await FakeGitHub.start();
    dir = await mkdtemp(join(tmpdir(), 'gpu-justify-action-mg-'));
  });
  afterEach(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
    expect(fake.errors).toEqual([]);
  });

  async function eventFile(name: string, payload: unknown): Promise<string> {
    const path = join(dir, `${name}.json`);
    await writeFile(path, JSON.stringify(payload));
    return path;
  }

  /** The workflow's run on the pull request: its comment and check, written with the workflow token. */
  async function reviewedPull(secret: string | undefined): Promise<FakeRepo> {
    const repo = new FakeRepo(fake, pullRequest({}, ENFORCE_POLICY)).serve();
    repo.commentAuthor = 'github-actions[bot]';
    const path = await eventFile(
      'pull_request',
      pullRequestPayload({ action: 'synchronize', installationId: 1, number: NUMBER, baseSha: BASE_SHA, headSha: HEAD_SHA }),
    );
    const env = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: path, GITHUB_TOKEN: TOKEN, GITHUB_API_URL: fake.url };
    await runAction({ ...env, ...(secret ? { GPU_JUSTIFY_STATE_SECRET: secret } : {}) }, noTelemetry, silent);
    // Written with the workflow token: GitHub lists the run as the github-actions app's.
    for (const run of repo.checkRuns) run.app = 'github-actions';
    expect(repo.checkRuns.at(-1)).toMatchObject({ head_sha: HEAD_SHA, conclusion: 'failure' });
    return repo;
  }

  /** `gpu-justify action` as the workflow runs it on `merge_group`: its exit status and what it printed. */
  async function runOnGroup(secret: string | undefined): Promise<{ status: number; printed: string }> {
    const path = await eventFile(
      'merge_group',
      mergeGroupPayload({ installationId: 1, number: NUMBER, baseSha: GROUP_BASE, headSha: GROUP_HEAD }),
    );
    const out: string[] = [];
    const output: Output = { stdout: (t) => out.push(t), stderr: (t) => out.push(t) };
    const saved = { ...process.env };
    Object.assign(process.env, {
      GITHUB_EVENT_NAME: 'merge_group',
      GITHUB_EVENT_PATH: path,
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: fake.url,
    });
    process.env['LOG_LEVEL'] = 'silent';
    if (secret) process.env['GPU_JUSTIFY_STATE_SECRET'] = secret;
    else delete process.env['GPU_JUSTIFY_STATE_SECRET'];
    try {
      return { status: await main(['action'], output), printed: out.join('\n') };
    } finally {
      process.env = saved;
    }
  }

  const groupChecks = (repo: FakeRepo) => repo.checkRuns.filter((r) => r.head_sha === GROUP_HEAD);

  it("carries the pull request's verdict to a group that changes the same capacity, and fails the job with it", async () => {
    const repo = await reviewedPull(SECRET);
    repo.addMergeGroup(GROUP_BASE, groupFiles(6), GROUP_HEAD, groupFiles(12));
    const { status, printed } = await runOnGroup(SECRET);
    const [run, ...more] = groupChecks(repo);
    expect(more).toEqual([]);
    expect(run).toMatchObject({ name: 'gpu-justify', status: 'completed', conclusion: 'failure' });
    expect(run?.output.summary).toContain(`same GPU capacity as pull request #${NUMBER}`);
    expect(status).toBe(1);
    expect(printed).toContain('merge group check failure');
  });

  it('reviews a group whose capacity differs whole', async () => {
    const repo = await reviewedPull(SECRET);
    // Another queued pull request raised the queue too: the group holds 6 → 16.
    repo.addMergeGroup(GROUP_BASE, groupFiles(6), GROUP_HEAD, groupFiles(16));
    expect((await runOnGroup(SECRET)).status).toBe(1);
    const [run] = groupChecks(repo);
    expect(run).toMatchObject({ conclusion: 'failure' });
    expect(run?.output.summary).toContain('reviewed whole');
  });

  it('without the state secret trusts no verdict on the pull request: the group is reviewed whole', async () => {
    const repo = await reviewedPull(undefined);
    repo.addMergeGroup(GROUP_BASE, groupFiles(6), GROUP_HEAD, groupFiles(12));
    expect((await runOnGroup(undefined)).status).toBe(1);
    const [run] = groupChecks(repo);
    expect(run).toMatchObject({ conclusion: 'failure' });
    expect(run?.output.summary).toContain('no verified verdict');
  });

  it('a merge group that names no pull request fails its check', async () => {
    const repo = await reviewedPull(SECRET);
    repo.addMergeGroup(GROUP_BASE, groupFiles(6), GROUP_HEAD, groupFiles(12));
    const path = await eventFile(
      'merge_group',
      mergeGroupPayload({ installationId: 1, number: NUMBER, baseSha: GROUP_BASE, headSha: GROUP_HEAD, headRef: 'refs/heads/some-branch' }),
    );
    const env = { GITHUB_EVENT_NAME: 'merge_group', GITHUB_EVENT_PATH: path, GITHUB_TOKEN: TOKEN, GITHUB_API_URL: fake.url };
    expect(await runMergeGroupAction(env, noTelemetry, silent)).toBe('failure');
    expect(groupChecks(repo)).toEqual([expect.objectContaining({ status: 'completed', conclusion: 'failure' })]);
  });
});
