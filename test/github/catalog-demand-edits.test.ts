import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { HEAD_SHA, prEvent, pullRequest, useApp } from './app-harness.js';
import { CATALOG, QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * An entry the PR edits is judged as the base has it unless the edit asks no more, whatever field
 * the edit moves. Through the real App over signed webhooks: two sweeps that ran on different days
 * moved onto the same days (as many days each, so no count grows), in generated sizes and days,
 * with `research` raised to what they would then need together, fail in enforce mode, saying that
 * the PR declares demand nothing measured.
 */

const h = useApp();
const ENFORCE = 'mode: enforce\n';
const SAYS = 'declares demand in `gpu-workloads.yaml` that nothing measured, so it does not count';
const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

function sweep(name: string, gpus: number, days: string[]): string {
  return `  - name: ${name}
    type: training
    queue: research
    gpusPerJob: ${gpus}
    runtime: 4h
    days: [${days.join(', ')}]
    window:
      earliestStart: "00:00"
      deadline: "06:00"
`;
}

const variants = [0, 1, 2].map((i) => {
  const gpus = 8 + ((i * 37 + 11) % 90);
  const start = i;
  const a = WEEK.slice(start, start + 3);
  const b = WEEK.filter((d) => !a.includes(d)).slice(0, 3);
  return { name: `sweep-b moved from ${b.join(',')} onto ${a.join(',')} at ${gpus} GPUs`, gpus, a, b };
});

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('an edited entry that may ask more is judged as the base has it', () => {
  it.each(variants)('$name', async (v) => {
    const pr = pullRequest({}, ENFORCE);
    pr.baseFiles['gpu-workloads.yaml'] = `${CATALOG}${sweep('sweep-a', v.gpus, v.a)}${sweep('sweep-b', v.gpus, v.b)}`;
    pr.baseFiles[QUEUE_FILE] = clusterQueue(v.gpus + 4);
    pr.headFiles['gpu-workloads.yaml'] = `${CATALOG}${sweep('sweep-a', v.gpus, v.a)}${sweep('sweep-b', v.gpus, v.a)}`;
    pr.headFiles[QUEUE_FILE] = clusterQueue(2 * v.gpus + 4);
    const repo = new FakeRepo(h.fake, pr).serve();

    await h.app.deliver('pull_request', prEvent());
    await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && ours(repo).includes(`blob/${HEAD_SHA}`), {
      what: 'the review',
      state: () => repo.checkRuns,
    });

    const run = repo.checkRuns.at(-1);
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.summary).toContain(SAYS);
    expect(run?.output.summary).toContain('days: moved');
  });
});
