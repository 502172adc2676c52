import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { ApiTreeReader } from '../../src/github/api-change-set.js';
import { loadPolicy } from '../../src/github/policy-loader.js';
import { DEFAULT_POLICY } from '../../src/domain/policy.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';

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

function load() {
  const octokit = testOctokit(fake.url);
  return loadPolicy(octokit, REPO, new ApiTreeReader(octokit, REPO, BASE_SHA));
}

describe('loadPolicy', () => {
  it('no policy anywhere means the defaults', async () => {
    serve({});

    expect(await load()).toEqual({ policy: DEFAULT_POLICY, diagnostics: [], file: null });
    // Probot's convention: the organisation's .github repository is asked, on its default branch.
    expect(fake.calls('GET', `/repos/acme/.github/contents/${POLICY}`)[0]?.query.get('ref')).toBeNull();
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

  it('a missing or looping _extends is reported, not fatal', async () => {
    serve({ [POLICY]: 'mode: enforce\n_extends: gone\n' });

    const missing = await load();

    expect(missing.policy.mode).toBe('enforce');
    expect(missing.diagnostics).toEqual([
      match.objectContaining({ file: POLICY, line: 2, severity: 'warning', message: match.stringContaining('acme/gone') }),
    ]);

    serve({ [POLICY]: '_extends: .github\n' });
    repo.addTree(ORG, 'HEAD', { [POLICY]: '_extends: acme/.github\nheadroom: 0.4\n' });
    const looping = await load();

    expect(looping.policy.headroom).toBe(0.4);
    expect(looping.diagnostics).toEqual([expect.objectContaining({ file: `acme/.github:${POLICY}`, line: 1, severity: 'error' })]);
  });

  it('an _extends value of the wrong shape is an error on its line', async () => {
    serve({ [POLICY]: 'mode: enforce\n_extends: [a, b]\n' });

    const loaded = await load();

    expect(loaded.policy.mode).toBe('enforce');
    expect(loaded.diagnostics).toEqual([expect.objectContaining({ file: POLICY, line: 2, severity: 'error' })]);
  });
});
