import { describe, expect, it, vi } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { DIR_LINKS, FILE_LINKS, QUEUES, linkedCount } from '../helpers/link-spellings.js';
import type { Spelling } from '../helpers/link-spellings.js';
import { ENFORCE_POLICY, prEvent, pullRequest, useApp } from './app-harness.js';
import { clusterQueue } from './scenarios.js';

/**
 * One link beside a changed queue file, its target spelt every way a checkout reads (`./x`,
 * `x//y`, `../a/./b`, a trailing `/`, absolute, out of the tree), through the real App over HTTP
 * against the strict fake GitHub. The queue counts once for the file and once for a link that
 * reads it, never for a link through which a checkout reads no file (a trailing `/` asks for a
 * directory), as in the CLI (test/cli/link-spellings.test.ts); a file read through a linked
 * directory, which the CLI counts, the App names not followed.
 */
const h = useApp();

async function review(s: Spelling) {
  const pr = pullRequest({}, ENFORCE_POLICY);
  const special = { [s.link]: { link: s.target } };
  const repo = new FakeRepo(h.fake, {
    ...pr,
    baseFiles: { ...pr.baseFiles, [QUEUES]: clusterQueue(6) },
    headFiles: { ...pr.headFiles, [QUEUES]: clusterQueue(12) },
    baseSpecial: special,
    headSpecial: special,
  }).serve();
  expect([200, 202]).toContain((await h.app.deliver('pull_request', prEvent())).status);
  await vi.waitFor(() => expect(repo.checkRuns.at(-1)?.status).toBe('completed'), { timeout: 30_000, interval: 50 });
  const check = repo.checkRuns.at(-1);
  const comment = repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
  return { check, comment };
}

describe('a link to a changed queue file, its target spelt any way, through the App', () => {
  it.each(FILE_LINKS)('$link -> $target', async (s) => {
    const { check, comment } = await review(s);
    expect(check?.conclusion).toBe('failure');
    expect(comment).toContain(`Changes (${linkedCount(s)})`);
    expect(comment).toContain(`/${QUEUES}#L`);
    if (s.reads !== null) expect(comment).toContain(`/${s.reads}#L`);
    expect(comment).not.toMatch(/Not followed/);
  });

  // The App does not list a linked directory's files: a changed file read through one is named
  // not followed, never passed; one that reads no file there is no change.
  it.each(DIR_LINKS)('$link -> $target', async (s) => {
    const { check, comment } = await review(s);
    expect(check?.conclusion).toBe('failure');
    expect(comment).toContain('Changes (1)');
    expect(comment).toContain(`/${QUEUES}#L`);
    if (s.reads === null) expect(comment).not.toMatch(/Not followed/);
    else expect(comment).toMatch(new RegExp(`Not followed \\(1 file\\)[^]*\`${s.reads}\`: `));
  });
});
