import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { PullRequestState } from '../helpers/fake-repo-state.js';
import { HEAD_SHA, prEvent, pullRequest, stickyBody, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';
import { CATALOG, QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A pull request cannot write the demand that justifies it, spread or spelt otherwise: through the
 * real App over signed webhooks, a PR that raises `research` by 64 GPUs and declares that demand
 * split over several new entries, in another duration unit the catalog accepts, as an inference
 * entry whose load test is a file the same PR adds, or with the catalog renamed under the
 * policy's default name's other spelling, never passes in enforce mode and is never `success` in
 * advise mode. Splits generated.
 */

const h = useApp();
const CATALOG_FILE = 'gpu-workloads.yaml';
const G = 64;

function job(name: string, gpus: number, runtime = '4h'): string {
  return `  - name: ${name}
    type: training
    queue: research
    gpusPerJob: ${gpus}
    runtime: ${runtime}
    jobsPerDay: 1
    window:
      earliestStart: "00:00"
      deadline: "06:00"
    interruptible: false
`;
}

const LOAD_TEST = JSON.stringify({
  benchmarks: [{ config: { rate: 50 }, metrics: { request_latency: { p95: 900 }, time_to_first_token_ms: { p95: 200 } } }],
});

interface Shape {
  name: string;
  arrange: (pr: PullRequestState) => void;
}

const shapes: Shape[] = [];
for (const parts of [2, 4, 8]) {
  shapes.push({
    name: `the demand split over ${parts} new entries of ${G / parts} GPUs`,
    arrange: (pr) =>
      void (pr.headFiles[CATALOG_FILE] = `${CATALOG}${Array.from({ length: parts }, (_, i) => job(`part-${i}`, G / parts)).join('')}`),
  });
}
shapes.push(
  {
    name: 'a new entry with its runtime in seconds',
    arrange: (pr) => void (pr.headFiles[CATALOG_FILE] = `${CATALOG}${job('big', G, '14400s')}`),
  },
  {
    name: 'a new entry with its runtime in weeks',
    arrange: (pr) => void (pr.headFiles[CATALOG_FILE] = `${CATALOG}${job('big', G, '1w')}`),
  },
  {
    name: 'an inference entry whose load test the PR adds',
    arrange: (pr) => {
      pr.headFiles['loadtests/big.json'] = LOAD_TEST;
      pr.headFiles[CATALOG_FILE] =
        `${CATALOG}  - name: big-serving\n    type: inference\n    queue: research\n    gpusPerReplica: 8\n    replicas: ${G / 8}\n    loadTest: loadtests/big.json\n    slo:\n      p95LatencyMs: 1000\n`;
    },
  },
  {
    name: 'the catalog moved to the other spelling, a new entry in it',
    arrange: (pr) => {
      delete pr.headFiles[CATALOG_FILE];
      pr.headFiles['gpu-workloads.yml'] = `${CATALOG}${job('big', G)}`;
      pr.renames = { 'gpu-workloads.yml': CATALOG_FILE };
    },
  },
);

async function reviewed(s: Shape, policy: string) {
  const pr = pullRequest({}, policy);
  pr.headFiles[QUEUE_FILE] = clusterQueue(6 + G);
  s.arrange(pr);
  const repo = new FakeRepo(h.fake, pr).serve();
  await h.app.deliver('pull_request', prEvent());
  await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && stickyBody(repo).includes(`blob/${HEAD_SHA}`), {
    what: 'the review done',
    state: () => repo.checkRuns,
  });
  return repo.checkRuns.at(-1);
}

describe('demand a PR spreads or spells otherwise does not justify it', () => {
  it.each(shapes)('enforce mode fails it: $name', async (s) => {
    const run = await reviewed(s, 'mode: enforce\n');
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).not.toMatch(/^GPU increase justified/);
  });

  it.each(shapes)('advise mode does not pass it: $name', async (s) => {
    const run = await reviewed(s, 'mode: advise\n');
    expect(run?.conclusion).toBe('neutral');
    expect(run?.output.title).not.toMatch(/^GPU increase justified/);
  });
});
