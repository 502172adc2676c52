import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { AppServer, WEBHOOK_SECRET } from '../helpers/app-server.js';
import type { AppServerOptions } from '../helpers/app-server.js';
import { eventually } from '../helpers/eventually.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import type { CheckRunState, FakeRepo, PullRequestState } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO, issueCommentPayload, pullRequestPayload } from '../helpers/payloads.js';
import type { IssueCommentPayloadOptions, PullRequestPayloadOptions } from '../helpers/payloads.js';
import { CATALOG, QUEUE_FILE, README, clusterQueue } from './scenarios.js';

/** What the App scenario files share: one fake GitHub and one App server per test. */

export const BASE_SHA = 'b'.repeat(40);
export const HEAD_SHA = 'c'.repeat(40);
export const NEWER_SHA = 'd'.repeat(40);
export const INSTALLATION = 4242;
export const NUMBER = 7;
export const POLICY_FILE = '.github/gpu-justify.yml';
export const REPO_PATH = `/repos/${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}`;

export const ENFORCE_POLICY = `mode: enforce
overrides:
  minPermission: maintain
  teams: [gpu-admins]
`;

export interface Harness {
  fake: FakeGitHub;
  app: AppServer;
}

/** The App as production loads it, its state signed with a key from the webhook secret. */
export const testApp = createGpuJustifyApp({ stateSecret: WEBHOOK_SECRET });

/** What tells the fake of the comments users write, as GitHub knows them before its webhook. */
export function witnessFor(fake: FakeGitHub): (event: string, payload: unknown) => void {
  return (event, payload) => fake.witness(event, payload);
}

/** Starts a fake and an App for each test; after it, the fake must have seen nothing invalid. */
export function useApp(options: () => AppServerOptions = () => ({})): Harness {
  const harness = {} as Harness;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  beforeAll(() => process.on('unhandledRejection', onUnhandled));
  afterAll(() => process.off('unhandledRejection', onUnhandled));
  beforeEach(async () => {
    unhandled.length = 0;
    harness.fake = await FakeGitHub.start();
    harness.app = await AppServer.start(testApp, harness.fake.url, { witness: witnessFor(harness.fake), ...options() });
  });
  afterEach(async () => {
    await harness.app.close();
    await harness.fake.close();
    expect(harness.fake.errors).toEqual([]);
    expect(unhandled).toEqual([]);
  });
  return harness;
}

/** A PR raising the research queue from 6 to 12 GPUs, which staggering makes unnecessary. */
export function pullRequest(over: Partial<PullRequestState> = {}, policy?: string): PullRequestState {
  const common = { 'gpu-workloads.yaml': CATALOG, 'README.md': README, ...(policy ? { [POLICY_FILE]: policy } : {}) };
  return {
    base: EXAMPLE_REPO,
    number: NUMBER,
    baseSha: BASE_SHA,
    headSha: HEAD_SHA,
    baseFiles: { [QUEUE_FILE]: clusterQueue(6), ...common },
    headFiles: { [QUEUE_FILE]: clusterQueue(12), ...common },
    ...over,
  };
}

export function prEvent(over: Partial<PullRequestPayloadOptions> = {}): Record<string, unknown> {
  return pullRequestPayload({
    action: 'opened',
    installationId: INSTALLATION,
    number: NUMBER,
    baseSha: BASE_SHA,
    headSha: HEAD_SHA,
    ...over,
  });
}

export function commentEvent(body: string, over: Partial<IssueCommentPayloadOptions> = {}): Record<string, unknown> {
  return issueCommentPayload({ installationId: INSTALLATION, number: NUMBER, body, ...over });
}

/** Every request that changed something on GitHub (token requests aside). */
export function writes(fake: FakeGitHub): string[] {
  // A GraphQL query reads; it writes nothing.
  return fake.requests
    .filter((r) => r.method !== 'GET' && r.path !== '/graphql' && !r.path.endsWith('/access_tokens'))
    .map((r) => `${r.method} ${r.path}`);
}

/** The body of the App's sticky comment on the PR, or '' before it is written. */
export function stickyBody(repo: FakeRepo): string {
  return repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
}

/**
 * Opens the PR, waits for the review to fail the check, then delivers the override comment and
 * waits for the grant: the start every grant scenario shares. The comment is built once the check
 * failed, as a person writes it: its time must follow the review it answers, or it grants nothing.
 */
export async function failThenOverride(h: Harness, repo: FakeRepo, override: () => Record<string, unknown>): Promise<void> {
  await h.app.deliver('pull_request', prEvent());
  await eventually(() => repo.checkRuns.at(-1)?.conclusion === 'failure' && stickyBody(repo).includes(`blob/${HEAD_SHA}`), {
    what: 'the review failing the check',
    state: () => repo.checkRuns,
  });
  await h.app.deliver('issue_comment', override());
  await eventually(() => repo.checkRuns.at(-1)?.conclusion === 'success' && stickyBody(repo).includes('gpu-justify:override'), {
    what: 'the override granted',
    state: () => repo.checkRuns,
  });
}

/**
 * Delivers the `synchronize` of a push already made to `repo` and waits for its review: the check
 * run of `sha` completed and, with `linked`, the sticky comment pointing at that head. Returns the run.
 */
export async function reviewPush(
  h: Harness,
  repo: FakeRepo,
  { sha = NEWER_SHA, baseSha, linked = false }: { sha?: string; baseSha?: string; linked?: boolean } = {},
): Promise<CheckRunState | undefined> {
  await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: sha, ...(baseSha === undefined ? {} : { baseSha }) }));
  const run = () => repo.checkRuns.filter((r) => r.head_sha === sha).at(-1);
  await eventually(() => run()?.status === 'completed' && (!linked || stickyBody(repo).includes(`blob/${sha}`)), {
    what: 'the review of the push',
    state: () => repo.checkRuns,
  });
  return run();
}

/** A grant kept after a push (`names` undefined: the run passes, the comment still shows it), or lapsed naming `names`. */
export function expectGrantKeptOrLapsed(repo: FakeRepo, run: CheckRunState | undefined, names: RegExp | string | undefined): void {
  if (names === undefined) {
    expect(run?.conclusion).toBe('success');
    expect(stickyBody(repo)).toContain('gpu-justify:override');
    return;
  }
  expect(run?.conclusion).toBe('failure');
  expect(run?.output.title).toMatch(/^Override lapsed/);
  expect(run?.output.summary).toMatch(names);
}
