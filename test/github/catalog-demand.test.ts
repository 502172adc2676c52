import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { ENFORCE_POLICY, prEvent, pullRequest, useApp } from './app-harness.js';
import { CATALOG } from './scenarios.js';

/** A PR cannot raise the demand it is judged by: through the real App, the catalog read from the head. */

const h = useApp();

/** The scenario's nightly runs, three times as many: enough to need the 12 GPUs asked for. */
const RAISED = CATALOG.replace('jobsPerDay: 4', 'jobsPerDay: 12');

/** A new training workload in the same queue, needing the GPUs on its own. */
const ADDED = `${CATALOG}  - name: new-finetune
    type: training
    queue: research
    gpusPerJob: 12
    runtime: 4h
    jobsPerDay: 1
    window:
      earliestStart: "00:00"
      deadline: "06:00"
    interruptible: false
`;

function withHeadCatalog(catalog: string, policy = ENFORCE_POLICY) {
  const pr = pullRequest({}, policy);
  pr.headFiles['gpu-workloads.yaml'] = catalog;
  return pr;
}

describe('a catalog entry whose demand the same PR raises', () => {
  it('is judged as the base branch has it in enforce mode, showing what the head would change', async () => {
    const repo = new FakeRepo(h.fake, withHeadCatalog(RAISED)).serve();

    await h.app.deliver('pull_request', prEvent());

    const run = repo.checkRuns[0];
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).toContain('not justified');
    expect(run?.output.summary).toContain('raises the demand of entries');
    expect(run?.output.summary).toContain('jobsPerDay: 4 → 12');
    expect(run?.output.summary).toMatch(/would make \d+ GPUs to add/);
    const comment = repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
    expect(comment).toContain('`nightly-eval`: jobsPerDay: 4 → 12');
  });

  it('is taken as the head has it in advise mode', async () => {
    const repo = new FakeRepo(h.fake, withHeadCatalog(RAISED, 'mode: advise\n')).serve();

    await h.app.deliver('pull_request', prEvent());

    expect(repo.checkRuns[0]?.output.title).not.toContain('not justified');
    expect(repo.checkRuns[0]?.output.summary).not.toContain('raises the demand');
  });

  it('lowered by the PR is taken as the head has it', async () => {
    const repo = new FakeRepo(h.fake, withHeadCatalog(CATALOG.replace('jobsPerDay: 4', 'jobsPerDay: 2'))).serve();

    await h.app.deliver('pull_request', prEvent());

    expect(repo.checkRuns[0]?.conclusion).toBe('failure');
    expect(repo.checkRuns[0]?.output.summary).not.toContain('raises the demand');
  });
});

describe('a workload the PR adds', () => {
  it('counts, marked as declared by this PR', async () => {
    const repo = new FakeRepo(h.fake, withHeadCatalog(ADDED)).serve();

    await h.app.deliver('pull_request', prEvent());

    const run = repo.checkRuns[0];
    expect(run?.output.title).not.toContain('not justified');
    expect(run?.output.summary).toContain('Declared by this pull request');
    expect(run?.output.summary).toContain('`new-finetune`');
    const comment = repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
    expect(comment).toContain('Declared by this pull request');
  });
});
