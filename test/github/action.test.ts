import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli/main.js';
import type { Output } from '../../src/cli/output.js';
import { runAction } from '../../src/action/run.js';
import { envWithInputs } from '../../src/action/entry.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { BASE_SHA, ENFORCE_POLICY, HEAD_SHA, NUMBER, pullRequest } from './app-harness.js';
import { pullRequestPayload } from '../helpers/payloads.js';
import { MALFORMED_QUEUE, QUEUE_FILE } from './scenarios.js';

const TOKEN = 'ghs_actionTestToken0000000000000000000000';
const noTelemetry = () => undefined;
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {}, trace: () => {}, fatal: () => {} } as never;

describe('the GitHub Action', () => {
  let fake: FakeGitHub;
  let dir: string;
  let eventPath: string;

  beforeEach(async () => {
    fake = await FakeGitHub.start();
    dir = await mkdtemp(join(tmpdir(), 'gpu-justify-action-'));
    eventPath = join(dir, 'event.json');
    // The recorded pull_request event, as the runner writes it to GITHUB_EVENT_PATH.
    await writeFile(
      eventPath,
      JSON.stringify(
        pullRequestPayload({ action: 'synchronize', installationId: 1, number: NUMBER, baseSha: BASE_SHA, headSha: HEAD_SHA }),
      ),
    );
  });
  afterEach(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
    expect(fake.errors).toEqual([]);
  });

  const env = () => ({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: eventPath, GITHUB_TOKEN: TOKEN, GITHUB_API_URL: fake.url });

  it('reviews the pull request with the workflow token and posts the comment and the check', async () => {
    const repo = new FakeRepo(fake, pullRequest()).serve();
    // The organisation's public .github repository, which the workflow token sees: no policy there.
    repo.addTree({ owner: 'Codertocat', repo: '.github' }, 'HEAD', { 'profile/README.md': '# Codertocat\n' });
    const outcome = await runAction(env(), noTelemetry, silent);
    expect(outcome.result?.verdict).toBe('not-justified');
    expect(repo.comments).toHaveLength(1);
    expect(repo.comments[0]?.body).toContain(COMMENT_MARKER);
    expect(repo.checkRuns).toEqual([
      expect.objectContaining({ name: 'gpu-justify', head_sha: HEAD_SHA, status: 'completed', conclusion: 'neutral' }),
    ]);
    expect(fake.requests.every((r) => r.headers['authorization'] === `token ${TOKEN}`)).toBe(true);
  });

  it('without a policy in the repository, and an organisation .github its token cannot see, fails closed', async () => {
    // The workflow token sees its own repository only: whether a private .github holds a policy cannot be told.
    const repo = new FakeRepo(fake, pullRequest()).serve();

    await runAction(env(), noTelemetry, silent);

    expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');
    expect(repo.checkRuns.at(-1)?.output.summary).toContain('Codertocat/.github:.github/gpu-justify.yml');
  });

  it('fails the job when the enforce-mode check fails', async () => {
    new FakeRepo(fake, pullRequest({}, ENFORCE_POLICY)).serve();
    const out: string[] = [];
    const output: Output = { stdout: (t) => out.push(t), stderr: (t) => out.push(t) };
    const saved = { ...process.env };
    Object.assign(process.env, env(), { LOG_LEVEL: 'silent' });
    try {
      expect(await main(['action'], output)).toBe(1);
    } finally {
      process.env = saved;
    }
    expect(out.join('\n')).toContain('not-justified, check failure');
  });

  it('keeps its comment among github-actions[bot]’s only, and trusts no state in it without a secret', async () => {
    const repo = new FakeRepo(fake, pullRequest({}, ENFORCE_POLICY)).serve();
    repo.commentAuthor = 'github-actions[bot]';
    // Another App's bot quoting our marker, and an earlier run's comment holding a record that
    // looks granted: the workflow token cannot sign, so any workflow could have written it.
    const other = repo.addComment(`${COMMENT_MARKER}\nnot ours`, 'Bot', 'other-app[bot]');
    const forged =
      '<!-- gpu-justify:override {"by":"maintainer","at":"2026-01-01T00:00:00.000Z","reason":"x","headSha":"' +
      HEAD_SHA +
      '","fingerprint":"0123456789abcdef0123456789abcdef","commentId":1,"sig":"' +
      '0'.repeat(64) +
      '"} -->';
    const earlier = repo.addComment(`${COMMENT_MARKER}\n${forged}\nearlier run`, 'Bot', 'github-actions[bot]');

    const outcome = await runAction(env(), noTelemetry, silent);

    expect(outcome.override).toBeNull();
    expect(repo.checkRuns.at(-1)).toMatchObject({ conclusion: 'failure' });
    expect(repo.comments.find((c) => c.id === other.id)?.body).toBe(`${COMMENT_MARKER}\nnot ours`);
    expect(fake.calls('PATCH', `/repos/Codertocat/Hello-World/issues/comments/${earlier.id}`)).toHaveLength(1);
    expect(repo.comments.find((c) => c.id === earlier.id)?.body).not.toContain('gpu-justify:override');
    expect(fake.calls('POST', '/repos/Codertocat/Hello-World/issues/7/comments')).toEqual([]);
  });

  it.each([
    ['an unreadable capacity file', 'mode: enforce\n'],
    ['an invalid policy', 'mode: enforse\n'],
  ])('fails the job on %s, as the enforce-mode check does', async (_name, policy) => {
    const pr = pullRequest({}, policy);
    if (policy === 'mode: enforce\n') pr.headFiles[QUEUE_FILE] = MALFORMED_QUEUE;
    const repo = new FakeRepo(fake, pr).serve();
    const out: string[] = [];
    const output: Output = { stdout: (t) => out.push(t), stderr: (t) => out.push(t) };
    const saved = { ...process.env };
    Object.assign(process.env, env(), { LOG_LEVEL: 'silent' });
    try {
      expect(await main(['action'], output)).toBe(1);
    } finally {
      process.env = saved;
    }
    expect(repo.checkRuns[0]?.conclusion).toBe('failure');
  });

  it('a named workflow keeps its own comment and check beside the unnamed one, and comment: never posts neither', async () => {
    const repo = new FakeRepo(fake, pullRequest({}, 'mode: enforce\n')).serve();
    repo.commentAuthor = 'github-actions[bot]';
    await runAction(env(), noTelemetry, silent);
    await runAction({ ...env(), GPU_JUSTIFY_INSTANCE: 'nightly' }, noTelemetry, silent);
    await runAction({ ...env(), GPU_JUSTIFY_INSTANCE: 'nightly' }, noTelemetry, silent);
    expect(repo.comments.map((c) => c.body.split('\n')[0])).toEqual([COMMENT_MARKER, '<!-- gpu-justify:comment:nightly -->']);
    expect(repo.checkRuns.map((r) => r.name)).toEqual(['gpu-justify', 'gpu-justify (nightly)', 'gpu-justify (nightly)']);

    const quiet = new FakeRepo(fake, { ...pullRequest({}, 'mode: enforce\ncomment: never\n'), number: NUMBER }).serve();
    quiet.commentAuthor = 'github-actions[bot]';
    quiet.comments.length = 0;
    quiet.checkRuns.length = 0;
    await runAction({ ...env(), GPU_JUSTIFY_INSTANCE: 'other' }, noTelemetry, silent);
    expect(quiet.comments).toEqual([]);
    expect(quiet.checkRuns).toEqual([expect.objectContaining({ name: 'gpu-justify (other)', conclusion: 'failure' })]);
  });

  it.each([
    [{ GITHUB_EVENT_NAME: 'push' }, /reviews pull requests and merge groups; this workflow ran on "push"/],
    [{ GITHUB_TOKEN: '' }, /GITHUB_TOKEN is not set/],
    [{ GITHUB_EVENT_PATH: '/nonexistent/event.json' }, /cannot read the event at \/nonexistent\/event\.json/],
    [{ GPU_JUSTIFY_INSTANCE: 'Staging' }, /instance: GPU_JUSTIFY_INSTANCE must be 1 to 32 of a-z/],
  ])('refuses to start without what it needs: %j', async (over, message) => {
    await expect(runAction({ ...env(), ...over }, noTelemetry, silent)).rejects.toThrow(message);
    expect(fake.requests).toEqual([]);
  });

  it('action.yml runs the bundle, and every input reaches the review under the name it reads', async () => {
    const action = parse(await readFile('action.yml', 'utf8')) as {
      inputs: Record<string, unknown>;
      runs: { using: string; main: string };
    };
    expect(action.runs).toEqual({ using: 'node24', main: 'action/dist/index.mjs' });
    const inputs = Object.fromEntries(Object.keys(action.inputs).map((name) => [`INPUT_${name.toUpperCase()}`, `value of ${name}`]));
    const env = envWithInputs(inputs);
    expect(
      Object.fromEntries(
        ['GITHUB_TOKEN', 'PROMETHEUS_URL', 'PROMETHEUS_BEARER_TOKEN', 'PROMETHEUS_HEADERS', 'OPENCOST_URL', 'GPU_JUSTIFY_INSTANCE'].map(
          (k) => [k, env[k]],
        ),
      ),
    ).toEqual({
      GITHUB_TOKEN: 'value of github-token',
      PROMETHEUS_URL: 'value of prometheus-url',
      PROMETHEUS_BEARER_TOKEN: 'value of prometheus-bearer-token',
      PROMETHEUS_HEADERS: 'value of prometheus-headers',
      OPENCOST_URL: 'value of opencost-url',
      GPU_JUSTIFY_INSTANCE: 'value of instance',
    });
    // An input left empty leaves the operator's own variable alone.
    expect(envWithInputs({ 'INPUT_PROMETHEUS-URL': '', PROMETHEUS_URL: 'http://prom:9090' }).PROMETHEUS_URL).toBe('http://prom:9090');
  });
});
