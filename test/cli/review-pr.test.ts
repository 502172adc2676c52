import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { pullRequest } from '../github/app-harness.js';

const TOKEN = 'ghp_reviewPrTestToken000000000000000000';

const run = runCli;

describe('gpu-justify review --pr', () => {
  let fake: FakeGitHub;
  const saved = { ...process.env };

  beforeEach(async () => {
    fake = await FakeGitHub.start();
    process.env['GITHUB_API_URL'] = fake.url;
    process.env['GITHUB_TOKEN'] = TOKEN;
  });
  afterEach(async () => {
    process.env = { ...saved };
    await fake.close();
    expect(fake.errors).toEqual([]);
  });

  it('reviews a pull request read through the API, and posts nothing', async () => {
    new FakeRepo(fake, pullRequest()).serve();
    const { code, stdout } = await run('review', '--pr', `${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}#7`, '--format', 'json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ verdict: 'not-justified', gpusRequested: 6, gpusNeeded: 0, headSha: 'c'.repeat(40) });
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(fake.requests.every((r) => r.headers['authorization'] === `token ${TOKEN}`)).toBe(true);
  });

  it('accepts the pull request’s web address and links the comment to its head', async () => {
    new FakeRepo(fake, pullRequest()).serve();
    const { code, stdout } = await run('review', '--pr', `https://github.com/${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}/pull/7`);
    expect(code).toBe(0);
    expect(stdout).toContain(`/blob/${'c'.repeat(40)}/`);
  });

  it('exits 2 naming the pull request it cannot read', async () => {
    fake.on('GET', `/repos/${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}/pulls/99`, () => ({ status: 404, body: { message: 'Not Found' } }));
    const { code, stderr } = await run('review', '--pr', `${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}#99`);
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot read pull request .*#99: .*404/);
    expect(stderr).not.toContain(TOKEN);
  });

  it.each([['nope'], ['o/r#0'], ['o/r#x']])('refuses a malformed reference %s', async (ref) => {
    const { code, stderr } = await run('review', '--pr', ref);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--pr must look like owner\/repo#123/);
  });
});
