import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiChangeSet, ApiTreeReader } from '../../src/github/api/change-set.js';
import { GraphqlBlobs } from '../../src/github/api/graphql-blobs.js';
import { notAFileAt } from '../../src/github/api/not-a-file.js';
import { loadPolicy } from '../../src/github/api/policy-loader.js';
import { ApiTreeListing } from '../../src/github/api/tree-listing.js';
import { POLICY_PATHS } from '../../src/review/index.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { FakeSpecial } from '../helpers/fake-repo-trees.js';
import { testOctokit } from '../helpers/octokit.js';

/**
 * What stands at the policy's directory on the base side, in every shape a tree can give it: the
 * App asks it of the contents API once a policy path gives no text, and answers the other policy
 * path from its names. Each shape must get the answer a listing of the base commit gave (the way
 * it was asked before, and still is where GraphQL listed the directory), the same policy with
 * GraphQL and without, and without GraphQL no listing at all and no call beyond one per policy
 * path.
 */

const REPO = { owner: 'acme', repo: 'infra' };
const BASE_SHA = '1'.repeat(40);
const HEAD_SHA = '2'.repeat(40);
const [YML, YAML] = POLICY_PATHS;
const ENFORCE = 'mode: enforce\n';
const SUBMODULE = { submodule: 'e'.repeat(40), url: 'https://github.com/acme/settings.git' };

interface Shape {
  name: string;
  files: Record<string, string>;
  special?: Record<string, FakeSpecial>;
}

const OTHER = { 'README.md': '# infra\n' };
const shapes: Shape[] = [
  { name: 'no .github', files: OTHER },
  { name: '.github without a policy', files: { ...OTHER, '.github/CODEOWNERS': '* @acme/infra\n' } },
  { name: 'the first path', files: { ...OTHER, [YML]: ENFORCE } },
  { name: 'the second path only', files: { ...OTHER, [YAML]: ENFORCE } },
  { name: 'both paths', files: { ...OTHER, [YML]: 'mode: advise\n', [YAML]: ENFORCE } },
  { name: 'the first path a directory', files: { ...OTHER, [`${YML}/x.yml`]: ENFORCE } },
  { name: 'the first path a link to a directory', files: { ...OTHER, 'config/p.yml': ENFORCE }, special: { [YML]: { link: '../config' } } },
  { name: 'the second path a submodule', files: OTHER, special: { [YAML]: SUBMODULE } },
  {
    name: '.github a link to a directory',
    files: { ...OTHER, [`config/${YML.split('/')[1]}`]: ENFORCE },
    special: { '.github': { link: 'config' } },
  },
  { name: '.github a link to a file', files: { ...OTHER, 'settings.yml': ENFORCE }, special: { '.github': { link: 'settings.yml' } } },
  { name: '.github a link to nothing', files: OTHER, special: { '.github': { link: 'missing' } } },
  { name: '.github a submodule', files: OTHER, special: { '.github': SUBMODULE } },
  { name: '.github a file', files: { ...OTHER, '.github': 'not a directory\n' } },
];

let fake: FakeGitHub;
beforeEach(async () => {
  fake = await FakeGitHub.start();
});
afterEach(async () => {
  await fake.close();
  expect(fake.errors).toEqual([]);
});

function serve(shape: Shape): void {
  new FakeRepo(fake, {
    base: REPO,
    number: 1,
    baseSha: BASE_SHA,
    headSha: HEAD_SHA,
    baseFiles: shape.files,
    headFiles: shape.files,
    ...(shape.special ? { baseSpecial: shape.special } : {}),
  }).serve();
}

async function policyOf(graphql: boolean) {
  const octokit = testOctokit(fake.url);
  const blobs = graphql ? new GraphqlBlobs(octokit) : null;
  const changes = new ApiChangeSet(octokit, { base: REPO, head: REPO, number: 1, baseSha: BASE_SHA, headSha: HEAD_SHA }, blobs);
  return loadPolicy(octokit, REPO, changes.base, blobs);
}

const baseCalls = (what: RegExp) => fake.calls('GET', what).filter((r) => r.path.startsWith('/repos/acme/infra/'));

describe('what stands at the policy directory of the base', () => {
  it.each(shapes)('$name: the answer a listing of the base gives, for every path at or below it', async (shape) => {
    serve(shape);
    const octokit = testOctokit(fake.url);
    const paths = [...POLICY_PATHS, '.github/deeper/gpu-justify.yml', '.github'];
    for (const path of paths) {
      // Each path on a fresh side, as the policy loader asks it: its read first.
      const changes = new ApiChangeSet(octokit, { base: REPO, head: REPO, number: 1, baseSha: BASE_SHA, headSha: HEAD_SHA }, null);
      const viaContents = await changes.base.read(path).then(
        async () => changes.base.notAFile(path),
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      const reader = new ApiTreeReader(octokit, REPO, BASE_SHA, null);
      const viaListing = await reader.read(path).then(
        async () => notAFileAt(new ApiTreeListing(octokit, REPO, BASE_SHA, null), reader, path),
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      expect({ path, answer: viaContents }).toEqual({ path, answer: viaListing });
    }
  });

  it.each(shapes)('$name: the same policy with GraphQL and without, and without GraphQL no listing', async (shape) => {
    serve(shape);
    const rest = await policyOf(false);
    expect(baseCalls(/\/git\/trees\//)).toEqual([]);
    // One call per policy path at most, the directory's answer standing in for the second path's
    // read; one more where the second path holds the policy: its read, after its directory's (the
    // listing of the base cost as much there).
    expect(baseCalls(/\/contents\//).length).toBeLessThanOrEqual(POLICY_PATHS.length + (rest.file === YAML ? 1 : 0));
    expect(await policyOf(true)).toEqual(rest);
  });

  it('a policy that is there reads in one call, as before', async () => {
    serve(shapes.find((s) => s.name === 'the first path') as Shape);
    expect((await policyOf(false)).policy.mode).toBe('enforce');
    expect(baseCalls(/\/contents\//).map((r) => r.path)).toEqual([`/repos/acme/infra/contents/${YML}`]);
  });

  it('a directory GitHub fails to answer fails the load, as a failed listing did: never "no policy"', async () => {
    serve(shapes.find((s) => s.name === 'the second path only') as Shape);
    fake.fail('GET', '/repos/acme/infra/contents/.github', { status: 502, body: { message: 'Bad Gateway' } }, 1);
    const octokit = testOctokit(fake.url);
    const changes = new ApiChangeSet(octokit, { base: REPO, head: REPO, number: 1, baseSha: BASE_SHA, headSha: HEAD_SHA }, null);
    await expect(loadPolicy(octokit, REPO, changes.base, null)).rejects.toThrow(/502/);
  });
});
