import { describe, expect, it } from 'vitest';
import { MAX_FILE_CHARS } from '../../src/domain/limits.js';
import { analysePullRequest } from '../../src/github/review-pull-request.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { gitBlobSha } from '../helpers/fake-repo-trees.js';
import { RAW_CHUNK_BYTES } from '../helpers/fake-github.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { testOctokit } from '../helpers/octokit.js';
import { BASE_SHA, HEAD_SHA, NUMBER, REPO_PATH, prEvent, pullRequest, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue, crdBundle } from './scenarios.js';

/** What a review reads and reports when GitHub's sizes and diffs let it skip downloads. */

const h = useApp();
const target = { base: EXAMPLE_REPO, head: EXAMPLE_REPO, number: NUMBER, baseSha: BASE_SHA, headSha: HEAD_SHA };
const CONFIG = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n';
const MiB = 1024 * 1024;
const BUNDLE = 'vendor/crds.yaml';
/** What the fake may send after the client stops reading, before it notices. */
const MARGIN = 4 * RAW_CHUNK_BYTES;
/** Body bytes the fake sent for the head side of `path`, holding `text`: its contents answers and blob downloads. */
const bytesSentFor = (path: string, text: string) =>
  [
    ...h.fake.calls('GET', `${REPO_PATH}/contents/${path}`).filter((r) => r.query.get('ref') === HEAD_SHA),
    ...h.fake.calls('GET', `${REPO_PATH}/git/blobs/${gitBlobSha(Buffer.from(text))}`),
  ].reduce((sum, r) => sum + r.bytesSent, 0);
const contentReads = (ref: string) =>
  h.fake
    .calls('GET', /\/contents\//)
    .filter((r) => r.query.get('ref') === ref)
    .map((r) => r.path.replace(/^.*\/contents\//, ''));

describe('the floor through the API', () => {
  const STACK =
    "import * as eks from 'aws-cdk-lib/aws-eks';\n\ncluster.addNodegroupCapacity('gpu', { instanceTypes: [new ec2.InstanceType('p4d.24xlarge')], maxSize: 4 });\n";
  const PNG = '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR nvidia.com/gpu';

  it('reads a changed file no parser takes through the same GraphQL query, and leaves a binary file undownloaded', async () => {
    const s = pullRequest({
      baseFiles: {
        ...pullRequest().baseFiles,
        'infra/stack.ts': STACK.replace('p4d.24xlarge', 'm5.large'),
        'docs/pools.png': PNG,
        'models/gpu.weights': PNG,
      },
      headFiles: { ...pullRequest().headFiles, 'infra/stack.ts': STACK, 'docs/pools.png': `${PNG}!`, 'models/gpu.weights': `${PNG}?` },
    });
    new FakeRepo(h.fake, s).serve();

    const { result } = await analysePullRequest(testOctokit(h.fake.url), target);

    expect(result.coverage?.find((c) => c.file === 'infra/stack.ts')).toEqual({
      file: 'infra/stack.ts',
      state: 'not-followed',
      notFollowed: [{ file: 'infra/stack.ts', line: 3, reason: 'unaccounted-signal', subject: 'p4d.24xlarge' }],
      // What a grant binds to of a file not followed: its text, read once (see below).
      content: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
    });
    expect(result.coverage?.find((c) => c.file === 'docs/pools.png')?.state).toBe('not-capacity');
    // A binary of no known kind is read as GraphQL answers it: no text, so no GPU name.
    expect(result.coverage?.find((c) => c.file === 'models/gpu.weights')?.state).toBe('not-capacity');
    expect(result.verdict).toBe('insufficient-evidence');
    // Nothing through REST: the text came with the query, the binaries were not downloaded.
    expect(h.fake.calls('GET', /\/contents\/|\/git\/blobs\//)).toEqual([]);
  });
});

describe('a review reading sparingly', () => {
  it('still sees a queue removed from a file that keeps other objects, reading that file at both sides', async () => {
    const base = `${clusterQueue(6)}---\n${CONFIG}`;
    const s = pullRequest({
      baseFiles: { ...pullRequest().baseFiles, [QUEUE_FILE]: base, 'app/settings.yaml': CONFIG },
      headFiles: { ...pullRequest().headFiles, [QUEUE_FILE]: CONFIG, 'app/settings.yaml': CONFIG.replace('"1"', '"2"') },
    });
    new FakeRepo(h.fake, s).serve().withoutGraphql();

    const { result } = await analysePullRequest(testOctokit(h.fake.url), target);

    expect(result.changes).toEqual([
      expect.objectContaining({ file: QUEUE_FILE, name: 'research', gpusBefore: 6, gpusAfter: 0, delta: -6 }),
    ]);
    expect(contentReads(BASE_SHA)).toContain(QUEUE_FILE);
    // The other changed file could hold no capacity at either side: its base was never read.
    expect(contentReads(BASE_SHA)).not.toContain('app/settings.yaml');
    expect(contentReads(HEAD_SHA)).toContain('app/settings.yaml');
  });

  it('reports a head over the size limit whose base held capacity without downloading it, in bytes', async () => {
    const big = `${clusterQueue(12)}# ${'x'.repeat(MAX_FILE_CHARS)}\n`;
    const repo = new FakeRepo(h.fake, pullRequest({ headFiles: { ...pullRequest().headFiles, [QUEUE_FILE]: big } })).serve();

    await h.app.deliver('pull_request', prEvent());

    // The base side declared a queue: that is enough, and it costs no download.
    expect(h.fake.calls('GET', /\/git\/blobs\//)).toEqual([]);
    const message = `${Buffer.byteLength(big).toLocaleString('en-US')} bytes, over the 1,048,576 bytes gpu-justify reads: its GPU capacity was not checked`;
    const comment = repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
    expect(comment).toContain(message);
    expect(JSON.stringify(repo.checkRuns[0]?.output)).toContain(message);

    const { result } = await analysePullRequest(testOctokit(h.fake.url), target);
    expect(result.verdict).toBe('insufficient-evidence');
    expect(result.diagnostics).toContainEqual({ file: QUEUE_FILE, line: null, severity: 'error', message });
    expect(result.missingEvidence).toContainEqual({ code: 'file-unreadable', file: QUEUE_FILE, at: QUEUE_FILE, message });
  });

  it.each([
    ['no parser would want at its start', ''],
    ['whose first lines declare a ClusterQueue', `${clusterQueue(64).replace('name: research', 'name: batch')}---\n`],
  ])('refuses a 3 MiB YAML %s, downloading none of it: unread as a whole, it is not judged by its start', async (_what, lead) => {
    const bundle = crdBundle(3 * MiB, lead);
    const repo = new FakeRepo(h.fake, pullRequest({ headFiles: { ...pullRequest().headFiles, [BUNDLE]: bundle } })).serve();

    await h.app.deliver('pull_request', prEvent());
    await h.fake.settled();

    expect(h.fake.calls('GET', /\/git\/blobs\//)).toEqual([]);
    expect(bytesSentFor(BUNDLE, bundle)).toBeLessThan(MARGIN);
    const message = '3,145,728 bytes, over the 1,048,576 bytes gpu-justify reads: its GPU capacity was not checked';
    expect(repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body).toContain(message);

    const { result } = await analysePullRequest(testOctokit(h.fake.url), target);
    expect(result.verdict).toBe('insufficient-evidence');
    expect(result.diagnostics).toContainEqual({ file: BUNDLE, line: null, severity: 'error', message });
    expect(result.missingEvidence).toContainEqual({ code: 'file-unreadable', file: BUNDLE, at: BUNDLE, message });
  });

  it('reads each side of a GPU file once and the catalog at both commits', async () => {
    new FakeRepo(h.fake, pullRequest()).serve().withoutGraphql();

    await h.app.deliver('pull_request', prEvent());

    expect(
      contentReads(BASE_SHA)
        .filter((p) => p === QUEUE_FILE || p === 'gpu-workloads.yaml')
        .sort(),
    ).toEqual(['clusters/prod/queues.yaml', 'gpu-workloads.yaml']);
    expect(
      contentReads(HEAD_SHA)
        .filter((p) => p === QUEUE_FILE || p === 'gpu-workloads.yaml')
        .sort(),
    ).toEqual(['clusters/prod/queues.yaml', 'gpu-workloads.yaml']);
    expect(h.fake.calls('GET', `${REPO_PATH}/pulls/${NUMBER}/files`)).toHaveLength(1);
  });
});
