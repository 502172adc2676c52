import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type ReviewResult } from '../../src/domain/index.js';
import { changeSetFromArgs } from '../../src/cli/tree-readers/change-set.js';
import { renderComment } from '../../src/report/comment.js';
import { runReview } from '../../src/review/index.js';
import { catalog, queueFile } from './scenarios.js';

/**
 * "Do this" points at the manifest of each workload the stagger plan moves: a CronJob's
 * `schedule:` line, and for a Job, which has no schedule, when to create it.
 */

const scratch = mkdtempSync(path.join(tmpdir(), 'do-this-manifests-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const cronJob = (name: string) => `apiVersion: batch/v1
kind: CronJob
metadata:
  name: ${name}
  namespace: research
spec:
  schedule: "0 0 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
            - name: main
              image: eval:1
              resources:
                limits:
                  nvidia.com/gpu: 2
          restartPolicy: Never
`;

const job = (name: string) => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
  namespace: research
spec:
  template:
    spec:
      containers:
        - name: main
          image: eval:1
          resources:
            limits:
              nvidia.com/gpu: 2
      restartPolicy: Never
`;

let n = 0;
async function reviewWith(manifests: Record<string, string>, jobsPerDay = 4): Promise<ReviewResult> {
  const root = path.join(scratch, String(n++));
  const write = (side: string, files: Record<string, string>) => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, side, file)), { recursive: true });
      writeFileSync(path.join(root, side, file), text);
    }
  };
  const common = { 'gpu-workloads.yaml': catalog('nightly-eval', 2, '2h', jobsPerDay), ...manifests };
  write('base', { ...common, 'q.yaml': queueFile(4) });
  write('head', { ...common, 'q.yaml': queueFile(8) });
  const changes = await changeSetFromArgs({ base: path.join(root, 'base'), head: path.join(root, 'head') });
  return runReview({ changes, policy: { policy: { ...DEFAULT_POLICY, headroom: 0 }, diagnostics: [], file: null } });
}

describe('Do this, at the manifest', () => {
  it("names a CronJob's schedule line for each CronJob to write", async () => {
    const result = await reviewWith({ 'jobs/eval.yaml': cronJob('nightly-eval') });
    expect(result.reviews[0]?.plan?.manifests).toEqual([
      {
        workload: 'nightly-eval',
        kind: 'CronJob',
        source: { file: 'jobs/eval.yaml', line: 1 },
        schedule: { file: 'jobs/eval.yaml', line: 7 },
      },
    ]);
    expect(renderComment(result)).toContain('  - nightly-eval (`jobs/eval.yaml:7`) runs 4 times a day; one CronJob has one schedule');
  });

  it('tells when to create a Job, which has no schedule, and the CronJob that would', async () => {
    const body = renderComment(await reviewWith({ 'jobs/eval.yaml': job('nightly-eval') }));
    expect(body).toMatch(
      /- nightly-eval is a Job \(`jobs\/eval\.yaml:\d+`\), which has no schedule: create it at 00:00 UTC, 02:00 UTC, 04:00 UTC, or run it from CronJobs with `schedule: "0 0 \* \* \*"`, `schedule: "0 2 \* \* \*"`, `schedule: "0 4 \* \* \*"`/,
    );
  });

  it('ties nothing when two manifests declare the name, or none does', async () => {
    const twice = await reviewWith({ 'a/eval.yaml': cronJob('nightly-eval'), 'b/eval.yaml': cronJob('nightly-eval') });
    expect(twice.reviews[0]?.plan?.manifests).toBeUndefined();
    expect(renderComment(twice)).toContain('  - nightly-eval runs 4 times a day');
    const none = await reviewWith({ 'jobs/other.yaml': cronJob('other') });
    expect(none.reviews[0]?.plan?.manifests).toBeUndefined();
  });
});
