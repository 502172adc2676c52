import { describe, expect, it, vi } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { gitBlobSha } from '../helpers/fake-repo-trees.js';
import type { PullRequestState } from '../helpers/fake-repo.js';
import { ENFORCE_POLICY, POLICY_FILE, prEvent, pullRequest, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * What is not a file, through the real App over HTTP with signed webhooks, against a fake GitHub
 * that serves links, submodules, renames, drafts and its size limits as GitHub does: a path that
 * becomes a submodule or a link leading out of the tree, and a file over the size limit, are
 * named and fail the check in enforce mode; never "no GPU change", never the queue removed.
 */
const h = useApp();

const SUBMODULE = 'e'.repeat(40);
const URL = 'https://github.com/someone/quotas.git';

function shownOf(repo: FakeRepo): string {
  const check = repo.checkRuns.at(-1);
  const comment = repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
  return `${check?.output.title ?? ''}\n${check?.output.summary ?? ''}\n${check?.output.text ?? ''}\n${comment}`;
}

/** Reviews `pr` and returns the check's conclusion and what the check and comment show. */
async function review(
  pr: PullRequestState,
  draft = false,
): Promise<{ conclusion: string | null | undefined; shown: string; repo: FakeRepo }> {
  const repo = new FakeRepo(h.fake, pr).serve();
  // 202: the review outlasted the webhook's answer (a cold start on a loaded machine); it goes on.
  expect([200, 202]).toContain((await h.app.deliver('pull_request', prEvent(draft ? { draft: true } : {}))).status);
  await vi.waitFor(() => expect(repo.checkRuns.at(-1)?.status).toBe('completed'), { timeout: 30_000, interval: 50 });
  const check = repo.checkRuns.at(-1);
  return { conclusion: check?.conclusion, shown: shownOf(repo), repo };
}

/** The queue file unchanged; `more` added at head. */
function withHead(more: Partial<PullRequestState>, policy = ENFORCE_POLICY): PullRequestState {
  const pr = pullRequest({}, policy);
  pr.headFiles[QUEUE_FILE] = clusterQueue(6);
  return { ...pr, ...more };
}

/** The queue file gone from head, `special` in its place or beside it. */
function replaced(special: PullRequestState['headSpecial'], extra: Record<string, string> = {}): PullRequestState {
  const pr = pullRequest({}, ENFORCE_POLICY);
  const { [QUEUE_FILE]: _, ...rest } = pr.headFiles;
  return { ...pr, headFiles: { ...rest, ...extra }, headSpecial: special ?? {} };
}

describe('submodules, through the App', () => {
  it('a capacity file replaced by a submodule is named and fails in enforce mode, never the queue removed', async () => {
    const { conclusion, shown } = await review(replaced({ [QUEUE_FILE]: { submodule: SUBMODULE, url: URL } }));
    expect(conclusion).toBe('failure');
    expect(shown).toContain(QUEUE_FILE);
    expect(shown).toMatch(/a git submodule \(at commit eeeeeeeeeeee\)/);
    expect(shown).not.toMatch(/6 → 0|No GPU capacity change/i);
  });

  it('a new submodule, whatever its name, is named and fails in enforce mode', async () => {
    const { conclusion, shown } = await review(withHead({ headSpecial: { 'vendor/quotas': { submodule: SUBMODULE, url: URL } } }));
    expect(conclusion).toBe('failure');
    expect(shown).toContain('vendor/quotas');
    expect(shown).toMatch(/a git submodule/);
    expect(shown).not.toMatch(/No GPU capacity change/i);
  });

  it('a submodule moved to another commit is named', async () => {
    const pr = withHead({
      baseSpecial: { 'vendor/quotas': { submodule: 'f'.repeat(40), url: URL } },
      headSpecial: { 'vendor/quotas': { submodule: SUBMODULE, url: URL } },
    });
    const { conclusion, shown } = await review(pr);
    expect(conclusion).toBe('failure');
    expect(shown).toMatch(/vendor\/quotas[\s\S]*a git submodule \(at commit eeeeeeeeeeee\)/);
  });

  it('in advise mode the check is neutral, never success, and in a draft the same holds', async () => {
    const advise = await review(withHead({ headSpecial: { 'vendor/quotas': { submodule: SUBMODULE, url: URL } } }, 'mode: advise\n'));
    expect(advise.conclusion).toBe('neutral');
    expect(advise.shown).toMatch(/a git submodule/);
  });

  it('a draft pull request that adds a submodule is reviewed as any other: named, failing in enforce mode', async () => {
    const { conclusion, shown } = await review(
      { ...withHead({ headSpecial: { 'vendor/quotas': { submodule: SUBMODULE, url: URL } } }), draft: true },
      true,
    );
    expect(conclusion).toBe('failure');
    expect(shown).toContain('is a draft');
    expect(shown).toMatch(/a git submodule/);
  });
});

describe('symbolic links, through the App', () => {
  it('a capacity file replaced by a link inside the repository is read as its target', async () => {
    const { shown } = await review(
      replaced({ [QUEUE_FILE]: { link: '../shared/queues.yaml' } }, { 'clusters/shared/queues.yaml': clusterQueue(12) }),
    );
    expect(shown).toMatch(/6 → 12/);
    expect(shown).not.toMatch(/6 → 0/);
  });

  it.each([
    ['outside the repository', '../../../../etc/gpu.yaml', /symbolic link leading outside the repository/], // hostile link target: data, never read
    ['to nothing', 'missing.yaml', /symbolic link to clusters\/prod\/missing\.yaml, which is not there/],
    ['to itself', 'queues.yaml', /symbolic link that loops/],
    ['to a directory', '../shared', /symbolic link to the directory clusters\/shared/],
  ])('a capacity file replaced by a link %s is named and fails, never the queue removed', async (_what, target, why) => {
    const { conclusion, shown } = await review(
      replaced({ [QUEUE_FILE]: { link: target } }, { 'clusters/shared/other.yaml': 'kind: ConfigMap\n' }),
    );
    expect(conclusion).toBe('failure');
    expect(shown).toContain(QUEUE_FILE);
    expect(shown).toMatch(why);
    expect(shown).not.toMatch(/6 → 0/);
  });

  it.each([
    ['a capacity file name', 'clusters/prod/more-queues.yaml'],
    ['a name no format reads', 'clusters/prod/vendor'],
  ])('a new link out of the tree at %s is named and fails, never "no GPU change"', async (_what, path) => {
    const { conclusion, shown } = await review(withHead({ headSpecial: { [path]: { link: '/etc/gpu-quotas' } } }));
    expect(conclusion).toBe('failure');
    expect(shown).toContain(path);
    expect(shown).toMatch(/symbolic link leading outside the repository/);
    expect(shown).not.toMatch(/No GPU capacity change/i);
  });
});

describe("GitHub's size limits, through the App", () => {
  const PAD = `# ${'x'.repeat(78)}\n`.repeat(14_000); // 1.1 MB of comments

  it.each([
    ['after the padding', (q: string) => `${PAD}${q}`],
    ['before the padding', (q: string) => `${q}${PAD}`],
  ])('a queue file padded over the limit, its queue %s, is refused by its size, named, and fails', async (_where, pad) => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    const head = pad(clusterQueue(12));
    pr.headFiles[QUEUE_FILE] = head;
    const { conclusion, shown } = await review(pr);
    expect(conclusion).toBe('failure');
    expect(shown).toMatch(/clusters\/prod\/queues\.yaml[^\n]*over the 1,048,576 bytes gpu-justify reads/);
    expect(shown).not.toMatch(/6 → 0|6 → 12/);
    // Refused by GitHub's size: never downloaded.
    expect(h.fake.requests.filter((r) => r.path.includes(gitBlobSha(Buffer.from(head, 'utf8'))))).toEqual([]);
  });

  it('a new file over the limit is refused whatever its start shows', async () => {
    const { conclusion, shown } = await review(
      withHead({ headFiles: { ...withHead({}).headFiles, 'clusters/prod/generated.yaml': `${PAD}kind: ConfigMap\n` } }),
    );
    expect(conclusion).toBe('failure');
    expect(shown).toMatch(/clusters\/prod\/generated\.yaml[^\n]*over the 1,048,576 bytes/);
  });

  it('a program only the floor reads (Pulumi), over the limit, is refused and named, never no change', async () => {
    const program = `${PAD.replace(/^# /gm, '// ')}new eks.ManagedNodeGroup("gpu", { instanceTypes: ["p5.48xlarge"], scalingConfig: { maxSize: 64 } });\n`;
    const { conclusion, shown } = await review(withHead({ headFiles: { ...withHead({}).headFiles, 'infra/index.ts': program } }));
    expect(conclusion).toBe('failure');
    expect(shown).toMatch(/infra\/index\.ts[^\n]*over the 1,048,576 bytes/);
    expect(shown).not.toMatch(/No GPU capacity change/i);
  });

  it('a lock file over the limit, which nothing applies, is not downloaded and holds nothing up', async () => {
    const lock = `{\n${'  "node_modules/x": { "version": "1.0.0" },\n'.repeat(26_000)}  "end": 1\n}\n`;
    const { conclusion, shown } = await review(withHead({ headFiles: { ...withHead({}).headFiles, 'tools/package-lock.json': lock } }));
    expect(conclusion).toBe('success');
    expect(shown).not.toMatch(/package-lock\.json[^\n]*over the/);
    expect(h.fake.requests.filter((r) => r.path.includes(gitBlobSha(Buffer.from(lock, 'utf8'))))).toEqual([]);
  });

  it('a file GraphQL cuts at 512,000 bytes, its queue past the cut, is read whole through REST', async () => {
    const pad = `# ${'y'.repeat(78)}\n`.repeat(8_000); // 640 KB: over GraphQL's text, within the limit
    const pr = pullRequest({}, ENFORCE_POLICY);
    pr.baseFiles[QUEUE_FILE] = `${pad}${clusterQueue(6)}`;
    pr.headFiles[QUEUE_FILE] = `${pad}${clusterQueue(12)}`;
    const { shown } = await review(pr);
    expect(shown).toMatch(/6 → 12/);
  });
});

describe('renamed files, through the App', () => {
  it('a capacity file renamed and raised is one change, read at both names', async () => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    const { [QUEUE_FILE]: _, ...rest } = pr.headFiles;
    const renamed = {
      ...pr,
      headFiles: { ...rest, 'clusters/prod/research-queue.yaml': clusterQueue(12) },
      renames: { 'clusters/prod/research-queue.yaml': QUEUE_FILE },
    };
    const { shown, repo } = await review(renamed);
    expect(shown).toMatch(/6 → 12/);
    expect(shown).not.toMatch(/6 → 0|0 → 12/);
    // The list names the rename as GitHub does.
    const files = h.fake.calls('GET', /\/pulls\/7\/files$/);
    expect(files.length).toBeGreaterThan(0);
    expect(repo.pr.renames).toBeDefined();
  });

  it('a capacity file renamed into a submodule path is named, never the queue moved away', async () => {
    const pr = replaced({ 'clusters/prod/research-queue.yaml': { submodule: SUBMODULE, url: URL } });
    const { conclusion, shown } = await review(pr);
    expect(conclusion).toBe('failure');
    expect(shown).toMatch(/research-queue\.yaml[\s\S]*a git submodule/);
  });

  it('the policy file is read from the base even when the head turns it into a link out of the tree', async () => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    const { [POLICY_FILE]: _, ...rest } = pr.headFiles;
    const { conclusion } = await review({ ...pr, headFiles: rest, headSpecial: { [POLICY_FILE]: { link: '/etc/advise.yml' } } });
    expect(conclusion).toBe('failure');
  });
});
