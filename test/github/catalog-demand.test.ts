import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { HEAD_SHA, NEWER_SHA, POLICY_FILE, commentEvent, prEvent, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';
import { CATALOG, QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A pull request cannot write the demand that justifies it. Through the real App over signed
 * webhooks: a PR that raises `research` and declares, in the catalog it also edits, the demand that
 * would justify the raise (a new job, a new service, a raised entry, a renamed one, a whole new
 * catalog; in generated sizes) is not justified by it. Enforce mode fails, advise mode is neutral,
 * both saying so plainly with what the declared demand would make of it; an authorised override, or
 * (when the policy turns it on) an approval by the catalog's code owner, lets it through, bound to
 * what the review showed.
 */

const h = useApp();

const ENFORCE = 'mode: enforce\noverrides:\n  minPermission: maintain\n';
const WITH_OWNERS = `${ENFORCE}  catalogOwners: true\n`;
const CATALOG_FILE = 'gpu-workloads.yaml';
const SAYS = 'declares demand in `gpu-workloads.yaml` that nothing measured, so it does not count';

/** A small deterministic generator, so each variant is the same on every run. */
function generator(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

function job(name: string, gpus: number, type = 'training'): string {
  return `  - name: ${name}
    type: ${type}
    queue: research
    gpusPerJob: ${gpus}
    runtime: 4h
    jobsPerDay: 1
    window:
      earliestStart: "00:00"
      deadline: "06:00"
    interruptible: false
`;
}

function service(name: string, replicas: number, loadTest?: string): string {
  return `  - name: ${name}
    type: inference
    queue: research
    gpusPerReplica: 1
    replicas: ${replicas}
    slo: { p95LatencyMs: 2000 }
    selector: { namespace: ${name} }
${loadTest === undefined ? '' : `    loadTest: ${loadTest}\n`}`;
}

/** One way for a PR to declare the demand that would justify raising research by `delta` (over 6). */
interface Declaration {
  name: string;
  delta: number;
  head: (files: Record<string, string>) => void;
  base?: (files: Record<string, string>) => void;
}

const declarations: Declaration[] = [];
for (let i = 0; i < 3; i++) {
  const pick = generator(2026_27_03 + i);
  // Above 6 the declared run alone, with the policy's headroom, needs more than the raise.
  const g = 8 + pick(390);
  declarations.push(
    {
      name: `a new training job of ${g} GPUs, research raised by ${g}`,
      delta: g,
      head: (f) => void (f[CATALOG_FILE] = `${CATALOG}${job(`finetune-${i}`, g)}`),
    },
    { name: `a new batch job of ${g} GPUs`, delta: g, head: (f) => void (f[CATALOG_FILE] = `${CATALOG}${job(`batch-${i}`, g, 'batch')}`) },
    {
      name: `a new service of ${g} replicas without a load test`,
      delta: g,
      head: (f) => void (f[CATALOG_FILE] = `${CATALOG}${service(`chat${i}`, g)}`),
    },
    {
      name: `a new service of ${g} replicas whose load test the PR adds`,
      delta: g,
      head: (f) => {
        f[CATALOG_FILE] = `${CATALOG}${service(`chat${i}`, g, 'loadtests/chat.json')}`;
        f['loadtests/chat.json'] = JSON.stringify([
          { request_rate: 0.1, request_throughput: 0.1, completed: 10, failed: 0, p95_e2el_ms: 500 },
        ]);
      },
    },
    {
      name: `nightly-eval raised to ${g} GPUs a run`,
      delta: g,
      head: (f) => void (f[CATALOG_FILE] = CATALOG.replace('gpusPerJob: 2', `gpusPerJob: ${g}`)),
    },
    {
      name: `nightly-eval renamed and raised to ${g} GPUs a run`,
      delta: g,
      head: (f) =>
        void (f[CATALOG_FILE] = CATALOG.replace('nightly-eval', `nightly-eval-v${i + 2}`).replace('gpusPerJob: 2', `gpusPerJob: ${g}`)),
    },
    {
      name: `a whole catalog the PR adds, declaring ${g} GPUs`,
      delta: g,
      base: (f) => void delete f[CATALOG_FILE],
      head: (f) => void (f[CATALOG_FILE] = `workloads:\n${job(`finetune-${i}`, g)}`),
    },
  );
}

function declaring(d: Declaration, policy: string) {
  const pr = pullRequest({}, policy);
  pr.headFiles[QUEUE_FILE] = clusterQueue(6 + d.delta);
  d.head(pr.headFiles);
  d.base?.(pr.baseFiles);
  return pr;
}

const ours = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';
const replies = (repo: FakeRepo) => repo.comments.filter((c) => !c.body.includes(COMMENT_MARKER));

/** The review of `sha` done: its check concluded and our comment written for it. */
async function reviewed(repo: FakeRepo, sha = HEAD_SHA): Promise<void> {
  await eventually(
    () => repo.checkRuns.filter((r) => r.head_sha === sha).at(-1)?.status === 'completed' && ours(repo).includes(`blob/${sha}`),
    {
      what: `the review of ${sha}`,
      state: () => repo.checkRuns,
    },
  );
}

/** A command handled. Refused: a reply, after the review it re-ran; granted: a new check that passes, and no reply. */
async function handled(repo: FakeRepo, runsBefore: number, repliesBefore: number): Promise<void> {
  await eventually(
    () => replies(repo).length > repliesBefore || (repo.checkRuns.length > runsBefore && repo.checkRuns.at(-1)?.conclusion === 'success'),
    { what: 'the command handled: a reply, or a new check that passes', state: () => repo.checkRuns },
  );
}

async function command(repo: FakeRepo, body: string, login: string, commentId: number): Promise<void> {
  const [runs, before] = [repo.checkRuns.length, replies(repo).length];
  await h.app.deliver('issue_comment', commentEvent(body, { login, commentId }));
  await handled(repo, runs, before);
}

describe('demand the pull request declares does not justify it by itself', () => {
  it.each(declarations)('enforce mode fails on $name, saying what it would make of it', async (d) => {
    const repo = new FakeRepo(h.fake, declaring(d, ENFORCE)).serve();

    await h.app.deliver('pull_request', prEvent());
    await reviewed(repo);

    const run = repo.checkRuns.at(-1);
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).not.toMatch(/^GPU increase justified/);
    expect(run?.output.summary).toContain(SAYS);
    expect(run?.output.summary).toContain('Taken as written, they would make the review **GPU increase justified**');
    expect(run?.output.summary).toContain('Missing measured demand of');
    expect(ours(repo)).toContain(SAYS);
  });

  it.each(declarations.slice(0, 7))('advise mode is neutral on $name, saying the same', async (d) => {
    const repo = new FakeRepo(h.fake, declaring(d, 'mode: advise\n')).serve();

    await h.app.deliver('pull_request', prEvent());
    await reviewed(repo);

    const run = repo.checkRuns.at(-1);
    expect(run?.conclusion).toBe('neutral');
    expect(run?.output.summary).toContain(SAYS);
    expect(ours(repo)).toContain(SAYS);
  });

  it('an entry the PR lowers, or one it adds on another queue, changes nothing', async () => {
    const pr = pullRequest({}, ENFORCE);
    pr.headFiles[CATALOG_FILE] =
      `${CATALOG.replace('jobsPerDay: 4', 'jobsPerDay: 2')}${job('elsewhere', 64).replace('queue: research', 'queue: other')}`;
    const repo = new FakeRepo(h.fake, pr).serve();

    await h.app.deliver('pull_request', prEvent());
    await reviewed(repo);

    const run = repo.checkRuns.at(-1);
    expect(run?.output.title).toMatch(/^GPU increase not justified/);
    expect(run?.output.summary).not.toContain('Missing measured demand');
  });
});

describe('an approval lets declared demand through, bound to what the review showed', () => {
  const first = declarations[0]!;

  it('an override by someone the policy names passes it, and lapses when the PR declares more', async () => {
    const pr = declaring(first, ENFORCE);
    const repo = new FakeRepo(h.fake, pr).serve();
    repo.roles['maintainer'] = 'maintain';
    await h.app.deliver('pull_request', prEvent());
    await h.app.deliver(
      'issue_comment',
      commentEvent('/gpu-justify override the finetune is funded', { login: 'maintainer', commentId: 701 }),
    );
    expect(repo.checkRuns.at(-1)?.conclusion).toBe('success');

    repo.push(NEWER_SHA, { ...pr.headFiles, [CATALOG_FILE]: `${pr.headFiles[CATALOG_FILE] ?? ''}${job('another', 16)}` });
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    await reviewed(repo, NEWER_SHA);

    const run = repo.checkRuns.at(-1);
    expect(run?.conclusion).toBe('failure');
    expect(run?.output.title).toMatch(/^Override lapsed: /);
    expect(run?.output.summary).toContain('missing evidence: measured demand of another');
  });

  const CODEOWNERS = { '.github/CODEOWNERS': `* @platform\n/${CATALOG_FILE} @ml-lead @${EXAMPLE_REPO.owner}/ml\n` };

  it.each([
    ['named in CODEOWNERS', 'ml-lead', () => undefined],
    ['through a team CODEOWNERS names', 'ml-member', (repo: FakeRepo) => void (repo.teams['ml'] = ['ml-member'])],
  ])('the catalog’s code owner (%s) approves it where the policy lets owners approve', async (_how, login, arrange) => {
    const pr = declaring(first, WITH_OWNERS);
    Object.assign(pr.baseFiles, CODEOWNERS);
    Object.assign(pr.headFiles, CODEOWNERS);
    const repo = new FakeRepo(h.fake, pr).serve();
    arrange(repo);
    await h.app.deliver('pull_request', prEvent());
    await reviewed(repo);

    await command(repo, '/gpu-justify override the ML team owns this', login, 702);

    const run = repo.checkRuns.at(-1);
    expect(run?.conclusion).toBe('success');
    expect(run?.output.title).toMatch(new RegExp(`^Declared demand approved by @${login}: `));
    expect(ours(repo)).toContain('**Declared demand approved**');
  });

  it('without the policy turning it on, a code owner may not', async () => {
    const pr = declaring(first, ENFORCE);
    Object.assign(pr.baseFiles, CODEOWNERS);
    const repo = new FakeRepo(h.fake, pr).serve();
    await h.app.deliver('pull_request', prEvent());
    await reviewed(repo);

    await command(repo, '/gpu-justify override mine', 'ml-lead', 703);

    expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');
    const reply = replies(repo).at(-1)?.body ?? '';
    expect(reply).toContain('the override was not accepted: overriding needs maintain permission');
  });

  it('a code owner approves declared demand only: not a PR that, counted, would still not be justified', async () => {
    // Two more GPUs a run than the base: counted, the raise of 12 is still more than needed.
    const small: Declaration = { name: 'small', delta: 12, head: (f) => void (f[CATALOG_FILE] = `${CATALOG}${job('tiny', 1)}`) };
    const pr = declaring(small, WITH_OWNERS);
    Object.assign(pr.baseFiles, CODEOWNERS);
    const repo = new FakeRepo(h.fake, pr).serve();
    await h.app.deliver('pull_request', prEvent());
    await reviewed(repo);

    await command(repo, '/gpu-justify override mine', 'ml-lead', 704);

    expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');
    const reply = replies(repo).at(-1)?.body ?? '';
    expect(reply).toContain('as a code owner of the catalog you may approve the demand this pull request declares there');
  });

  it('CODEOWNERS the PR edits does not make its author an owner: it is read from the base branch', async () => {
    const pr = declaring(first, WITH_OWNERS);
    pr.headFiles['.github/CODEOWNERS'] = `/${CATALOG_FILE} @mallory\n`;
    const repo = new FakeRepo(h.fake, pr).serve();
    await h.app.deliver('pull_request', prEvent());
    await reviewed(repo);

    await command(repo, '/gpu-justify override mine now', 'mallory', 705);

    expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');
  });
});

describe('a policy file the PR edits', () => {
  it('cannot turn code owners on for itself', async () => {
    const pr = declaring(declarations[0]!, ENFORCE);
    pr.headFiles[POLICY_FILE] = WITH_OWNERS;
    pr.baseFiles['.github/CODEOWNERS'] = `/${CATALOG_FILE} @ml-lead\n`;
    const repo = new FakeRepo(h.fake, pr).serve();
    await h.app.deliver('pull_request', prEvent());
    await reviewed(repo);

    await command(repo, '/gpu-justify override mine', 'ml-lead', 706);

    expect(repo.checkRuns.at(-1)?.conclusion).toBe('failure');
  });
});
