import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { sideReader } from '../../src/github/api/side-probes.js';
import { loadPolicy } from '../../src/github/api/policy-loader.js';
import { DEFAULT_POLICY } from '../../src/domain/policy.js';
import { GraphqlBlobs } from '../../src/github/api/graphql-blobs.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';
import { tokenClient } from '../../src/github/api/token-client.js';

const REPO = { owner: 'acme', repo: 'infra' };
const ORG = { owner: 'acme', repo: '.github' };
const BASE_SHA = '1'.repeat(40);
const POLICY = '.github/gpu-justify.yml';

let fake: FakeGitHub;
let repo: FakeRepo;
beforeEach(async () => {
  fake = await FakeGitHub.start();
});
afterEach(async () => {
  await fake.close();
  expect(fake.errors).toEqual([]);
});

function serve(baseFiles: Record<string, string>): void {
  repo = new FakeRepo(fake, {
    base: REPO,
    number: 1,
    baseSha: BASE_SHA,
    headSha: '2'.repeat(40),
    baseFiles,
    headFiles: {},
  }).serve();
}

function load(selection: 'all' | 'selected' = 'all', graphql = false) {
  const octokit = testOctokit(fake.url, selection);
  const blobs = graphql ? new GraphqlBlobs(octokit) : null;
  return loadPolicy(octokit, REPO, sideReader(octokit, REPO, BASE_SHA, blobs), blobs);
}

describe('loadPolicy', () => {
  it('no policy anywhere means the defaults', async () => {
    serve({});

    expect(await load()).toEqual({ policy: DEFAULT_POLICY, diagnostics: [], file: null });
    // Probot's convention: the organisation's .github repository is asked, on its default branch,
    // resolved to one commit first; GitHub's 404 there says it is not to be seen.
    expect(fake.calls('GET', '/repos/acme/.github/commits/HEAD')).toHaveLength(1);
    expect(fake.calls('GET', `/repos/acme/.github/contents/${POLICY}`)).toEqual([]);
  });

  it('reads the repository file at the base commit', async () => {
    serve({ [POLICY]: 'mode: enforce\nheadroom: 0.1\n' });

    const loaded = await load();

    expect(loaded).toMatchObject({ file: POLICY, diagnostics: [] });
    expect(loaded.policy).toEqual({ ...DEFAULT_POLICY, mode: 'enforce', headroom: 0.1 });
    expect(fake.calls('GET', `/repos/acme/infra/contents/${POLICY}`)[0]?.query.get('ref')).toBe(BASE_SHA);
  });

  it('an invalid value is a diagnostic with file and line, and the rest still applies', async () => {
    serve({ [POLICY]: 'mode: enforce\n\nheadroom: lots\n' });

    const loaded = await load();

    expect(loaded.policy.mode).toBe('enforce');
    expect(loaded.policy.headroom).toBe(DEFAULT_POLICY.headroom);
    expect(loaded.diagnostics).toEqual([expect.objectContaining({ file: POLICY, line: 3, severity: 'error' })]);
  });

  it("falls back to the organisation's .github repository", async () => {
    serve({});
    repo.addTree(ORG, 'HEAD', { [POLICY]: 'mode: enforce\n' });

    const loaded = await load();

    expect(loaded.file).toBe(`acme/.github:${POLICY}`);
    expect(loaded.policy.mode).toBe('enforce');
  });

  it('_extends inherits keys the local file does not set; local keys win', async () => {
    serve({ [POLICY]: '_extends: .github\nheadroom: 0.3\n' });
    repo.addTree(ORG, 'HEAD', { [POLICY]: 'mode: enforce\nheadroom: 0.1\nwindow: 7d\n' });

    const loaded = await load();

    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.policy).toEqual({ ...DEFAULT_POLICY, mode: 'enforce', headroom: 0.3, window: 7 * 24 * 60 });
  });

  it('_extends follows owner/repo:path, and a problem there names that file and line', async () => {
    serve({ [POLICY]: '_extends: platform/policies:gpu/base.yml\n' });
    repo.addTree({ owner: 'platform', repo: 'policies' }, 'HEAD', {
      'gpu/base.yml': '# shared\nmode: enforce\nidleBelow: 2\n',
    });

    const loaded = await load();

    expect(loaded.policy.mode).toBe('enforce');
    expect(loaded.diagnostics).toEqual([expect.objectContaining({ file: 'platform/policies:gpu/base.yml', line: 3, severity: 'error' })]);
  });

  it('a looping _extends is an error naming the file, and the policy is unread', async () => {
    serve({ [POLICY]: '_extends: .github\n' });
    repo.addTree(ORG, 'HEAD', { [POLICY]: '_extends: acme/.github\nheadroom: 0.4\n' });
    const looping = await load();

    expect(looping.policy.headroom).toBe(0.4);
    expect(looping.diagnostics).toEqual([expect.objectContaining({ file: `acme/.github:${POLICY}`, line: 1, severity: 'error' })]);
    expect(looping.unread).toEqual([`acme/.github:${POLICY}`]);
  });

  it('an _extends value of the wrong shape is an error on its line', async () => {
    serve({ [POLICY]: 'mode: enforce\n_extends: [a, b]\n' });

    const loaded = await load();

    expect(loaded.policy.mode).toBe('enforce');
    expect(loaded.diagnostics).toEqual([expect.objectContaining({ file: POLICY, line: 2, severity: 'error' })]);
  });
});

/**
 * A policy the chain names but that cannot be read is not "no policy": every way a shared file can
 * fail to be read, at each place of the chain, over GraphQL and over REST, is an error naming that
 * file, and the policy is unread (so the review runs as in enforce mode and nobody may override).
 */
describe('an inherited policy that cannot be read', () => {
  const SHARED = { owner: 'platform', repo: 'policies' };
  const LABEL = `platform/policies:${POLICY}`;
  const ENFORCE = 'mode: enforce\noverrides:\n  minPermission: admin\n';

  type Fault = { name: string; arrange: () => void; says: RegExp };
  const faults: Fault[] = [
    {
      name: 'a repository the installation does not include (404)',
      arrange: () => undefined,
      says: /GitHub answers 404 for platform\/policies.*add it to the installation \(repository permission Contents: read\)/,
    },
    {
      name: 'no such file in a repository it sees',
      arrange: () => repo.addTree(SHARED, 'HEAD', { 'README.md': '#\n' }),
      says: /does not exist/,
    },
    { name: 'a 403', arrange: () => refuse(403), says: /refused the App \(403\).*Contents: read/ },
    { name: 'a 502 after retries', arrange: () => refuse(502), says: /GitHub failed \(502\) after retries/ },
    { name: 'invalid YAML', arrange: () => repo.addTree(SHARED, 'HEAD', { [POLICY]: 'mode: [enforce\n' }), says: /invalid YAML/ },
    {
      name: 'a loop',
      arrange: () => repo.addTree(SHARED, 'HEAD', { [POLICY]: '_extends: platform/policies\n' }),
      says: /loop/,
    },
    { name: 'a chain too long', arrange: () => chain(6), says: /more than 5 files chained/ },
  ];

  function refuse(status: number): void {
    repo.addTree(SHARED, 'HEAD', { [POLICY]: ENFORCE });
    // GraphQL refused too (a FORBIDDEN error fails its query), the read goes to REST.
    fake.fail('POST', '/graphql', { status, body: { message: 'no' } }, 10);
    fake.fail('GET', `/repos/platform/policies/contents/${POLICY}`, { status, body: { message: 'no' } }, 10);
  }

  /** platform/policies → p1 → p2 … each extending the next. */
  function chain(length: number): void {
    repo.addTree(SHARED, 'HEAD', { [POLICY]: '_extends: platform/p1\n' });
    for (let i = 1; i < length; i++)
      repo.addTree({ owner: 'platform', repo: `p${i}` }, 'HEAD', { [POLICY]: `_extends: platform/p${i + 1}\n` });
    repo.addTree({ owner: 'platform', repo: `p${length}` }, 'HEAD', { [POLICY]: ENFORCE });
  }

  describe.each([
    ['the repository file', (): void => serve({ [POLICY]: '_extends: platform/policies\nheadroom: 0.3\n' })],
    [
      "the organisation's default",
      (): void => {
        serve({});
        repo.addTree(ORG, 'HEAD', { [POLICY]: '_extends: platform/policies\n' });
      },
    ],
  ])('named by _extends in %s', (_where, arrangeFirst) => {
    for (const graphql of [true, false]) {
      it.each(faults)(`$name is an error naming the file (${graphql ? 'GraphQL' : 'REST'})`, async (fault) => {
        arrangeFirst();
        if (!graphql) repo.withoutGraphql();
        fault.arrange();

        const loaded = await load('all', graphql);

        const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
        expect(errors.length).toBeGreaterThan(0);
        expect(errors.map((d) => d.message).join('\n')).toMatch(fault.says);
        expect(loaded.unread?.length).toBeGreaterThan(0);
        // The inherited `admin` is never silently replaced by the default `maintain`: nobody may override.
        expect(loaded.unread?.join(' ')).toMatch(/platform\/(policies|p\d)/);
      });
    }

    it('read whole, it applies and nothing is unread', async () => {
      arrangeFirst();
      repo.addTree(SHARED, 'HEAD', { [POLICY]: ENFORCE });

      const loaded = await load();

      expect(loaded.diagnostics).toEqual([]);
      expect(loaded.unread).toBeUndefined();
      expect(loaded.policy.mode).toBe('enforce');
      expect(loaded.policy.overrides.minPermission).toBe('admin');
      expect(loaded.file).not.toBe(LABEL);
    });
  });

  describe("the organisation's default, for a repository without a policy", () => {
    for (const graphql of [true, false]) {
      const via = graphql ? 'GraphQL' : 'REST';

      it(`is none when the App sees the .github repository and it has no policy (${via})`, async () => {
        serve({});
        if (!graphql) repo.withoutGraphql();
        repo.addTree(ORG, 'HEAD', { 'profile/README.md': '#\n' });

        expect(await load('selected', graphql)).toEqual({ policy: DEFAULT_POLICY, diagnostics: [], file: null });
      });

      it(`is none when the App cannot see .github but is installed on every repository (${via})`, async () => {
        serve({});
        if (!graphql) repo.withoutGraphql();

        expect(await load('all', graphql)).toEqual({ policy: DEFAULT_POLICY, diagnostics: [], file: null });
      });

      it(`cannot be told when the installation is on selected repositories: unread, naming the file and the access (${via})`, async () => {
        serve({});
        if (!graphql) repo.withoutGraphql();

        const loaded = await load('selected', graphql);

        expect(loaded.unread).toEqual([`acme/.github:${POLICY}`]);
        expect(loaded.diagnostics).toEqual([
          match.objectContaining({
            file: `acme/.github:${POLICY}`,
            severity: 'error',
            message: match.stringMatching(
              /404 for acme\/\.github.*add acme\/\.github to the App's installation \(repository permission Contents: read\)/,
            ),
          }),
        ]);
      });
    }

    it.each([403, 500, 503])('a %i for its file is an error, whatever the installation', async (status) => {
      serve({});
      repo.withoutGraphql();
      repo.addTree(ORG, 'HEAD', { [POLICY]: 'mode: enforce\n' });
      fake.fail('GET', `/repos/acme/.github/contents/${POLICY}`, { status, body: { message: 'no' } }, 10);

      const loaded = await load('all');

      expect(loaded.unread).toEqual([`acme/.github:${POLICY}`]);
      expect(loaded.diagnostics[0]?.message).toMatch(new RegExp(`\\(${status}\\)`));
    });

    it('a token that is no installation (the Action, a person) cannot tell either', async () => {
      serve({});
      const octokit = tokenClient({ GITHUB_TOKEN: 'ghp_person', GITHUB_API_URL: fake.url });

      const loaded = await loadPolicy(octokit, REPO, sideReader(octokit, REPO, BASE_SHA));

      expect(loaded.unread).toEqual([`acme/.github:${POLICY}`]);
    });
  });
});
