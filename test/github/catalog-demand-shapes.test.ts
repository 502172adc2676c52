import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { FakeSpecial } from '../helpers/fake-repo-trees.js';
import { HEAD_SHA, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';
import { CATALOG, QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A pull request cannot write the demand that justifies it, in shapes of catalog entry beyond a
 * plain new or raised one: through the real App over signed webhooks, a PR that raises `research`
 * by the demand it declares under a name spelt like an existing entry's (case, invisible
 * characters, a duplicate), through a YAML merge key, on a queue name spelt otherwise, or in a
 * catalog that is a link to a file the PR adds, is never passed by it in enforce mode.
 */

const h = useApp();
const ENFORCE = 'mode: enforce\noverrides:\n  minPermission: maintain\n';
const CATALOG_FILE = 'gpu-workloads.yaml';
const G = 64;

function job(name: string, gpus: number, queue = 'research'): string {
  return `  - name: ${name}
    type: training
    queue: ${queue}
    gpusPerJob: ${gpus}
    runtime: 4h
    jobsPerDay: 1
    window:
      earliestStart: "00:00"
      deadline: "06:00"
    interruptible: false
`;
}

interface Shape {
  name: string;
  head: (files: Record<string, string>) => void;
  headSpecial?: Record<string, FakeSpecial>;
  /** Read as demand the PR declares (an entry added or raised), which the comment names as such. */
  declared?: true;
}

const shapes: Shape[] = [
  { name: 'a duplicate of an existing entry, larger', head: (f) => void (f[CATALOG_FILE] = `${CATALOG}${job('nightly-eval', G)}`) },
  {
    name: 'an existing entry re-cased and raised',
    declared: true,
    head: (f) => void (f[CATALOG_FILE] = `${CATALOG}${job('Nightly-Eval', G)}`),
  },
  {
    name: 'an existing entry with a zero-width space, raised',
    declared: true,
    head: (f) => void (f[CATALOG_FILE] = `${CATALOG}${job('nightly-eval\u200b', G)}`),
  },
  {
    name: 'an existing entry replaced by a look-alike name, raised',
    head: (f) => void (f[CATALOG_FILE] = CATALOG.replace('nightly-eval', 'nightly-evaI').replace('gpusPerJob: 2', `gpusPerJob: ${G}`)),
  },
  {
    name: 'a new entry through a YAML merge key on the existing one',
    declared: true,
    head: (f) =>
      void (f[CATALOG_FILE] =
        `${CATALOG.replace('  - name: nightly-eval', '  - &base\n    name: nightly-eval')}  - <<: *base\n    name: eval-large\n    gpusPerJob: ${G}\n`),
  },
  { name: 'a new entry on the queue spelt in capitals', head: (f) => void (f[CATALOG_FILE] = `${CATALOG}${job('big', G, 'Research')}`) },
  {
    name: 'a new entry on the queue with a trailing space',
    head: (f) => void (f[CATALOG_FILE] = `${CATALOG}${job('big', G, '"research "')}`),
  },
  {
    name: 'the catalog a link to a file the PR adds',
    head: (f) => {
      delete f[CATALOG_FILE];
      f['catalogs/all.yaml'] = `${CATALOG}${job('big', G)}`;
    },
    headSpecial: { [CATALOG_FILE]: { link: 'catalogs/all.yaml' } },
  },
  {
    name: 'the catalog in JSON',
    declared: true,
    head: (f) =>
      void (f[CATALOG_FILE] = JSON.stringify({
        workloads: [
          {
            name: 'nightly-eval',
            type: 'batch',
            queue: 'research',
            gpusPerJob: 2,
            runtime: '2h',
            jobsPerDay: 4,
            window: { earliestStart: '00:00', deadline: '06:00' },
            interruptible: false,
          },
          {
            name: 'big',
            type: 'training',
            queue: 'research',
            gpusPerJob: G,
            runtime: '4h',
            jobsPerDay: 1,
            window: { earliestStart: '00:00', deadline: '06:00' },
            interruptible: false,
          },
        ],
      })),
  },
];

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('demand the PR declares under a spelling of its own does not justify it', () => {
  it.each(shapes)('$name', async (s) => {
    const run = await reviewed(s, ENFORCE);
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).not.toMatch(/^GPU increase justified/);
  });

  it.each(shapes.filter((s) => s.declared))('advise mode says so plainly: $name', async (s) => {
    const run = await reviewed(s, 'mode: advise\n');
    expect(run?.conclusion).toBe('neutral');
    expect(run?.output.summary).toContain('that nothing measured, so it does not count');
  });
});

async function reviewed(s: Shape, policy: string) {
  const pr = pullRequest({}, policy);
  pr.headFiles[QUEUE_FILE] = clusterQueue(6 + G);
  s.head(pr.headFiles);
  if (s.headSpecial) pr.headSpecial = s.headSpecial;
  const repo = new FakeRepo(h.fake, pr).serve();
  await h.app.deliver('pull_request', prEvent());
  await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && ours(repo).includes(`blob/${HEAD_SHA}`), {
    what: 'the review done',
    state: () => repo.checkRuns,
  });
  return repo.checkRuns.at(-1);
}
