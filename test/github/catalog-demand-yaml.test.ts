import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { parseCatalog } from '../../src/workloads/index.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { HEAD_SHA, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A pull request cannot write the demand that justifies it, whatever YAML it writes the entry in.
 * Every spelling the catalog reader resolves (a merge key, alone, in a list, in a flow map or
 * tagged; aliases of fields; flow style; a `%YAML 1.1` directive and document markers) gives the
 * same entries as the plain block form, and through the real App over signed webhooks a PR that
 * raises `research` by what it declares that way fails in enforce mode and advise mode names it
 * as declared demand.
 */

const h = useApp();
const CATALOG_FILE = 'gpu-workloads.yaml';
const G = 64;
const WINDOW = '{earliestStart: "00:00", deadline: "06:00"}';
const BASE_FIELDS = `type: batch, queue: research, gpusPerJob: 2, runtime: 2h, jobsPerDay: 4, window: ${WINDOW}, interruptible: false`;
const BIG_FIELDS = `type: training, queue: research, gpusPerJob: ${G}, runtime: 4h, jobsPerDay: 1, window: ${WINDOW}, interruptible: false`;

/** The base's catalog, with its one entry anchored as `base` so a head can build on it. */
const ANCHORED = `workloads:\n  - &base\n    name: nightly-eval\n    type: batch\n    queue: research\n    gpusPerJob: 2\n    runtime: 2h\n    jobsPerDay: 4\n    window:\n      earliestStart: "00:00"\n      deadline: "06:00"\n    interruptible: false\n`;
const PLAIN_BIG = `${ANCHORED}  - {name: big, ${BIG_FIELDS}}\n`;

interface Spelling {
  name: string;
  /** The head's catalog. */
  text: string;
  /** The same catalog in plain block or flow style, which the spelling must read as. */
  plain: string;
}

const ADDED_BATCH = `${ANCHORED}  - {name: eval-large, type: batch, queue: research, gpusPerJob: ${G}, runtime: 2h, jobsPerDay: 4, window: ${WINDOW}, interruptible: false}\n`;

const spellings: Spelling[] = [
  { name: 'a merge key', text: `${ANCHORED}  - <<: *base\n    name: eval-large\n    gpusPerJob: ${G}\n`, plain: ADDED_BATCH },
  {
    name: 'a merge key given a list',
    text: `${ANCHORED}  - <<: [*base]\n    name: eval-large\n    gpusPerJob: ${G}\n`,
    plain: ADDED_BATCH,
  },
  { name: 'a merge key in a flow map', text: `${ANCHORED}  - {<<: *base, name: eval-large, gpusPerJob: ${G}}\n`, plain: ADDED_BATCH },
  {
    name: 'a tagged merge key',
    text: `${ANCHORED}  - !!merge <<: *base\n    name: eval-large\n    gpusPerJob: ${G}\n`,
    plain: ADDED_BATCH,
  },
  {
    name: 'a merge key of an inline map',
    text: `${ANCHORED}  - <<: {${BIG_FIELDS}}\n    name: big\n`,
    plain: PLAIN_BIG,
  },
  {
    name: 'merge keys of two maps, the first winning',
    text: `${ANCHORED}  - <<: [{gpusPerJob: ${G}, type: training, runtime: 4h, jobsPerDay: 1}, *base]\n    name: big\n`,
    plain: `${ANCHORED}  - {name: big, type: training, queue: research, gpusPerJob: ${G}, runtime: 4h, jobsPerDay: 1, window: ${WINDOW}, interruptible: false}\n`,
  },
  {
    name: 'aliases of fields',
    text:
      ANCHORED.replace('queue: research', 'queue: &q research').replace('    window:\n', '    window: &w\n') +
      `  - name: big\n    type: training\n    queue: *q\n    gpusPerJob: ${G}\n    runtime: 4h\n    jobsPerDay: 1\n    window: *w\n    interruptible: false\n`,
    plain: PLAIN_BIG,
  },
  { name: 'flow style', text: `{workloads: [{name: nightly-eval, ${BASE_FIELDS}}, {name: big, ${BIG_FIELDS}}]}\n`, plain: PLAIN_BIG },
  { name: 'a YAML 1.1 directive and document markers', text: `%YAML 1.1\n---\n${PLAIN_BIG}...\n`, plain: PLAIN_BIG },
  {
    name: 'the existing entry raised through a merge key it overrides',
    text: `workloads:\n  - <<: {${BASE_FIELDS}}\n    name: nightly-eval\n    gpusPerJob: 18\n`,
    plain: `workloads:\n  - {name: nightly-eval, type: batch, queue: research, gpusPerJob: 18, runtime: 2h, jobsPerDay: 4, window: ${WINDOW}, interruptible: false}\n`,
  },
];

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('every YAML spelling the catalog reader resolves is read as the plain entries', () => {
  it.each(spellings)('$name', ({ text, plain }) => {
    const read = parseCatalog(CATALOG_FILE, text);
    expect(read.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const strip = (r: ReturnType<typeof parseCatalog>) => r.workloads.map(({ source: _source, ...w }) => w);
    expect(strip(read)).toEqual(strip(parseCatalog(CATALOG_FILE, plain)));
    expect(read.workloads.length).toBeGreaterThan(0);
  });
});

describe('demand declared in any YAML spelling does not justify the PR that declares it', () => {
  it.each(spellings)('enforce mode fails it: $name', async (s) => {
    const run = await reviewed(s.text, 'mode: enforce\n');
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).not.toMatch(/^GPU increase justified/);
    expect(run?.output.summary).toContain('that nothing measured, so it does not count');
  });

  it.each(spellings)('advise mode names it as declared demand: $name', async (s) => {
    const run = await reviewed(s.text, 'mode: advise\n');
    expect(run?.conclusion).toBe('neutral');
    expect(run?.output.summary).toContain('that nothing measured, so it does not count');
  });
});

async function reviewed(catalog: string, policy: string) {
  const pr = pullRequest({}, policy);
  pr.headFiles[QUEUE_FILE] = clusterQueue(6 + G);
  pr.headFiles[CATALOG_FILE] = catalog;
  const repo = new FakeRepo(h.fake, pr).serve();
  await h.app.deliver('pull_request', prEvent());
  await eventually(() => repo.checkRuns.at(-1)?.status === 'completed' && ours(repo).includes(`blob/${HEAD_SHA}`), {
    what: 'the review done',
    state: () => repo.checkRuns,
  });
  return repo.checkRuns.at(-1);
}
