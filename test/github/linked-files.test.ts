import { dirname, posix } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { LAYOUTS, pool, variables } from '../helpers/linked-layouts.js';
import type { Layout } from '../helpers/linked-layouts.js';
import type { FakeSpecial } from '../helpers/fake-repo-trees.js';
import type { PullRequestState } from '../helpers/fake-repo.js';
import { ENFORCE_POLICY, prEvent, pullRequest, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A file several folders read through symbolic links (one `variables.tf` linked into each root
 * module, a shared queue file), through the real App over HTTP against the strict fake GitHub: a
 * change to the file keeps every link's blob as it was, so the PR's file list names the file alone,
 * yet each link reads the new text. A raise is judged where it is applied (counted, or named as
 * not followed), never "no GPU change"; a CPU-only change stays no GPU change.
 */
const h = useApp();

function linksOf(layout: Layout): Record<string, FakeSpecial> {
  return Object.fromEntries(layout.links.map(([link, to]) => [link, { link: posix.relative(dirname(link), to) }]));
}

/** The pull request changing `layout.shared` from `before` to `after`, the module reading it through its links. */
function prWith(layout: Layout, before: string, after: string): PullRequestState {
  const pr = pullRequest({}, ENFORCE_POLICY);
  const module = dirname(layout.links[0]?.[0] ?? '');
  const same = { [QUEUE_FILE]: clusterQueue(6), [`${module}/main.tf`]: pool(layout.links[0]?.[0] ?? '') };
  return {
    ...pr,
    baseFiles: { ...pr.baseFiles, ...same, [layout.shared]: before },
    headFiles: { ...pr.headFiles, ...same, [layout.shared]: after },
    baseSpecial: linksOf(layout),
    headSpecial: linksOf(layout),
  };
}

async function review(pr: PullRequestState): Promise<{ conclusion: string | null | undefined; shown: string; repo: FakeRepo }> {
  const repo = new FakeRepo(h.fake, pr).serve();
  expect([200, 202]).toContain((await h.app.deliver('pull_request', prEvent())).status);
  await vi.waitFor(() => expect(repo.checkRuns.at(-1)?.status).toBe('completed'), { timeout: 30_000, interval: 50 });
  const check = repo.checkRuns.at(-1);
  const comment = repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
  const shown = `${check?.output.title ?? ''}\n${check?.output.summary ?? ''}\n${check?.output.text ?? ''}\n${comment}`;
  return { conclusion: check?.conclusion, shown, repo };
}

const blobCalls = () => h.fake.calls('GET', /\/git\/blobs\//);
const treeCalls = () => h.fake.calls('GET', /\/git\/trees\//);

describe('a file read through symbolic links, through the App', () => {
  it.each(LAYOUTS)('a GPU default raised in a variables file linked from $name is judged in the module that reads it', async (layout) => {
    const module = dirname(layout.links[0]?.[0] ?? '');
    const { conclusion, shown } = await review(prWith(layout, variables(2, 3), variables(5, 3)));
    expect(conclusion).toBe('failure');
    expect(shown).toContain(`${module}/main.tf:5`);
    expect(shown).toMatch(/`l4` \(GKE node pool, L4\): 2 → 5 GPUs \(\+3\)/);
    expect(shown).not.toMatch(/No GPU capacity change/i);
    // Measured: one recursive listing of each side (GitHub answered the link with the file its
    // target reaches lexically, so the link's own target is read from the tree to check its `..`),
    // and one read of each link's blob, shared by both sides.
    expect(treeCalls().length).toBeLessThanOrEqual(2);
    expect(blobCalls()).toHaveLength(layout.links.length);
  });

  it.each(LAYOUTS)('a CPU-only change in a variables file linked from $name is no GPU change', async (layout) => {
    const { conclusion, shown } = await review(prWith(layout, variables(2, 3), variables(2, 9)));
    expect(conclusion).toBe('success');
    expect(shown).toMatch(/No GPU capacity change/);
    expect(shown).not.toMatch(/not followed|could not/i);
  });

  it('a queue file changed under a name no parser reads is judged at the link that applies it', async () => {
    const shared = 'clusters/common/queues.src';
    const pr = pullRequest({}, ENFORCE_POLICY);
    const special = { 'clusters/prod/queues.yaml': { link: '../common/queues.src' } };
    const { conclusion, shown } = await review({
      ...pr,
      baseFiles: { ...pr.baseFiles, [QUEUE_FILE]: clusterQueue(6), [shared]: clusterQueue(6) },
      headFiles: { ...pr.headFiles, [QUEUE_FILE]: clusterQueue(6), [shared]: clusterQueue(12) },
      baseSpecial: special,
      headSpecial: special,
    });
    expect(conclusion).toBe('failure');
    expect(shown).toContain('clusters/prod/queues.yaml');
    expect(shown).toMatch(/6 → 12/);
  });

  it('a file changed in a linked directory is named at the path that reads it, never passed', async () => {
    const pr = pullRequest({}, ENFORCE_POLICY);
    const special = { 'gke/common': { link: '../common' } };
    const same = { [QUEUE_FILE]: clusterQueue(6), 'gke/main.tf': pool('gke/common/variables.tf') };
    const { conclusion, shown } = await review({
      ...pr,
      baseFiles: { ...pr.baseFiles, ...same, 'common/variables.tf': variables(2, 3) },
      headFiles: { ...pr.headFiles, ...same, 'common/variables.tf': variables(5, 3) },
      baseSpecial: special,
      headSpecial: special,
    });
    expect(conclusion).toBe('failure');
    expect(shown).toContain('gke/common/variables.tf');
    expect(shown).not.toMatch(/No GPU capacity change/i);
  });

  it('a link leading out of the tree, unchanged, leads to no changed file: a CPU-only change passes', async () => {
    const layout = LAYOUTS[0] as Layout;
    const pr = prWith(layout, variables(2, 3), variables(2, 9));
    const out = { 'gke/outside.tf': { link: '../../elsewhere/vars.tf' } };
    const { conclusion } = await review({ ...pr, baseSpecial: { ...pr.baseSpecial, ...out }, headSpecial: { ...pr.headSpecial, ...out } });
    expect(conclusion).toBe('success');
  });
});
