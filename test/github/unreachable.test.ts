import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeFailure, GitHubApiError } from '../../src/github/api/errors.js';
import { tokenClient } from '../../src/github/api/token-client.js';

/** What Octokit throws when fetch got no answer: status 500, no response, the socket's error two causes deep. */
function noAnswer(cause: object): Error {
  const fetchFailed = Object.assign(new TypeError('fetch failed'), { cause });
  return Object.assign(new Error('x'), {
    status: 500,
    request: { method: 'GET', url: 'https://ghe.example/api/v3/repos/o/r/pulls/1' },
    cause: fetchFailed,
  });
}

describe('a request that got no answer', () => {
  it.each([
    ['ENOTFOUND', /its host name does not resolve \(ENOTFOUND\)/],
    ['ECONNREFUSED', /the connection was refused \(ECONNREFUSED\)/],
    ['UND_ERR_CONNECT_TIMEOUT', /the connection timed out \(UND_ERR_CONNECT_TIMEOUT\)/],
    ['CERT_HAS_EXPIRED', /its TLS certificate was not accepted \(CERT_HAS_EXPIRED\)/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /its TLS certificate was not accepted/],
  ])('%s is named with the setting to check, never as "refused: 500"', (code, words) => {
    const line = describeFailure(noAnswer(Object.assign(new Error(`connect ${code}`), { code })));
    expect(line).toMatch(words);
    expect(line).toMatch(/^GitHub API unreachable: .* on GET \/api\/v3\/repos\/o\/r\/pulls\/1; check the API URL \(GITHUB_API_URL/);
    expect(line).not.toMatch(/500/);
  });

  it('a 500 GitHub answered stays a refusal', () => {
    const err = Object.assign(new Error('Server Error'), {
      status: 500,
      request: { method: 'GET', url: 'https://api.github.com/x' },
      response: { status: 500 },
    });
    expect(GitHubApiError.from(err)?.network).toBeUndefined();
    expect(describeFailure(err)).toBe('GitHub API refused: 500 on GET /x');
  });
});

describe('the CLI and Action client with an unreachable API', () => {
  // A port that was just free: nothing listens, every connection is refused.
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it('pays the retries once, then fails every later request at once with the cause', async () => {
    const octokit = tokenClient({ GITHUB_TOKEN: 'ghs_test', GITHUB_API_URL: `http://127.0.0.1:${await closedPort()}` });
    const first = await octokit.request('GET /repos/o/r/pulls/1').then(
      () => null,
      (err: unknown) => err,
    );
    expect(first).toBeInstanceOf(GitHubApiError);
    expect((first as GitHubApiError).network?.code).toBe('ECONNREFUSED');
    const started = Date.now();
    await expect(octokit.request('GET /repos/o/r/pulls/1/files')).rejects.toThrow(/GitHub API unreachable: the connection was refused/);
    await expect(octokit.request('POST /repos/o/r/check-runs', { name: 'x', head_sha: 'a' })).rejects.toThrow(/unreachable/);
    expect(Date.now() - started).toBeLessThan(1000);
  }, 30_000);
});
