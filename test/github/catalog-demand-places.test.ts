import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { PullRequestState } from '../helpers/fake-repo-state.js';
import { HEAD_SHA, POLICY_FILE, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';
import { CATALOG, QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A pull request cannot write the demand that justifies it, in places beyond the catalog's own
 * entries: through the real App over signed webhooks, a PR that raises `research` by 64 GPUs and
 * declares that demand in the catalog renamed (pointing its own policy at the new name), in a second
 * catalog beside the first, in a workload manifest it adds, or by raising an existing entry's runs
 * or runtime, never passes in enforce mode, and is never `success` in advise mode.
 */

const h = useApp();
const CATALOG_FILE = 'gpu-workloads.yaml';
const G = 64;
const BIG = `  - name: big
    type: training
    queue: research
    gpusPerJob: ${G}
    runtime: 4h
    jobsPerDay: 1
    window:
      earliestStart: "00:00"
      deadline: "06:00"
    interruptible: false
`;

const JOB = `apiVersion: batch/v1
kind: Job
metadata:
  name: big
  labels:
    kueue.x-k8s.io/queue-name: research
spec:
  parallelism: ${G / 8}
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: train
          image: example/train:1
          resources:
            limits:
              nvidia.com/gpu: 8
`;

interface Place {
  name: string;
  arrange: (pr: PullRequestState, policy: string) => void;
  /** An entry of the catalog raised: advise mode names it as declared demand. */
  declared?: true;
}

const places: Place[] = [
  {
    name: 'the catalog renamed, the PR pointing its own policy at the new name',
    arrange: (pr, policy) => {
      delete pr.headFiles[CATALOG_FILE];
      pr.headFiles['catalogs/workloads.yaml'] = `${CATALOG}${BIG}`;
      pr.headFiles[POLICY_FILE] = `${policy}catalog: catalogs/workloads.yaml\n`;
      pr.renames = { 'catalogs/workloads.yaml': CATALOG_FILE };
    },
  },
  { name: 'a second catalog beside the first', arrange: (pr) => void (pr.headFiles['gpu-workloads.yml'] = `${CATALOG}${BIG}`) },
  { name: 'a second catalog in a folder', arrange: (pr) => void (pr.headFiles['catalog/gpu-workloads.yaml'] = `${CATALOG}${BIG}`) },
  { name: 'a workload manifest the PR adds', arrange: (pr) => void (pr.headFiles['jobs/big.yaml'] = JOB) },
  {
    name: "an existing entry's runs raised",
    declared: true,
    arrange: (pr) =>
      void (pr.headFiles[CATALOG_FILE] = CATALOG.replace('gpusPerJob: 2', 'gpusPerJob: 16').replace('jobsPerDay: 4', 'jobsPerDay: 12')),
  },
  {
    name: "an existing entry's runtime and window raised",
    declared: true,
    arrange: (pr) =>
      void (pr.headFiles[CATALOG_FILE] = CATALOG.replace('gpusPerJob: 2', 'gpusPerJob: 32')
        .replace('runtime: 2h', 'runtime: 6h')
        .replace('deadline: "06:00"', 'deadline: "23:00"')),
  },
];

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('demand a PR declares elsewhere than a new catalog entry does not justify it', () => {
  it.each(places)('enforce mode fails it: $name', async (p) => {
    const run = await reviewed(p, 'mode: enforce\n');
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).not.toMatch(/^GPU increase justified/);
  });

  it.each(places)('advise mode does not pass it: $name', async (p) => {
    const run = await reviewed(p, 'mode: advise\n');
    expect(run?.conclusion).toBe('neutral');
    expect(run?.output.title).not.toMatch(/^GPU increase justified/);
    if (p.declared) expect(run?.output.summary).toContain('that nothing measured, so it does not count');
  });
});

async function reviewed(p: Place, policy: string) {
  const pr = pullRequest({}, policy);
  pr.headFiles[QUEUE_FILE] = clusterQueue(6 + G);
  p.arrange(pr, policy);
  const repo = new FakeRepo(h.fake, pr).serve();
  await h.app.deliver('pull_request', prEvent());
  await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && ours(repo).includes(`blob/${HEAD_SHA}`), {
    what: 'the review done',
    state: () => repo.checkRuns,
  });
  return repo.checkRuns.at(-1);
}
