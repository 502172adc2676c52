import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import type { FakeRequest } from '../helpers/fake-github.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import { HEAD_SHA, POLICY_FILE, prEvent, pullRequest, stickyBody, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';

/**
 * An inherited policy is read from one commit of its repository: through the real App over signed
 * webhooks, a push to the shared repository's default branch that lands between the reads of two
 * layers (the file, then the layer its `_extends` names) never mixes the two states into a policy
 * neither commit holds. Each commit alone says `enforce`; the mix (the old file, the new layer)
 * would say `advise`. Read through REST and through GraphQL. Then every way the inherited read can
 * fail (the default branch unresolved: 404, 403, 5xx; a layer that fails the schema; a ref in
 * `_extends`) fails closed naming the file, never neutral.
 */

const h = useApp();

const OWNER = EXAMPLE_REPO.owner;
const SHARED = { owner: OWNER, repo: 'policies' };
const LAYER = 'layer.yml';

/** Before the push: the file adds nothing, its layer enforces. */
const FIRST = { [POLICY_FILE]: `_extends: policies:${LAYER}\n`, [LAYER]: 'mode: enforce\n' };
/** After it: the file enforces, its layer advises. */
const SECOND = { [POLICY_FILE]: `_extends: policies:${LAYER}\nmode: enforce\n`, [LAYER]: 'mode: advise\n' };

async function reviewed(repo: FakeRepo) {
  await h.app.deliver('pull_request', prEvent());
  await eventually(
    () => {
      const last = repo.checkRuns.at(-1);
      return last?.status === 'completed' && (last.conclusion === 'success' || stickyBody(repo).includes(`blob/${HEAD_SHA}`));
    },
    { what: 'the review done', state: () => repo.checkRuns },
  );
  const run = repo.checkRuns.at(-1);
  if (!run) throw new Error('no check run');
  return run;
}

/** Moves the shared repository's default branch to SECOND once the request `arrived` is held, then lets it go. */
function pushWhenHeld(repo: FakeRepo, method: string, path: string | RegExp): { pushed: () => boolean } {
  let release!: () => void;
  let pushed = false;
  const held = h.fake.hold(method, path, new Promise<void>((resolve) => (release = resolve)));
  void held.arrived.then(() => {
    repo.addTree(SHARED, 'HEAD', SECOND);
    pushed = true;
    release();
  });
  return { pushed: () => pushed };
}

function asksFor(path: string): (r: FakeRequest) => boolean {
  return (r) => JSON.stringify(r.body ?? '').includes(path);
}

describe('a push to the shared policy between the reads of its layers', () => {
  it('through REST: the layer is read at the commit its file came from', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, '_extends: policies\n')).serve().withoutGraphql();
    repo.addTree(SHARED, 'HEAD', FIRST);
    const push = pushWhenHeld(repo, 'GET', new RegExp(`/repos/${OWNER}/policies/contents/${LAYER.replace('.', '\\.')}`));

    const run = await reviewed(repo);

    expect(push.pushed()).toBe(true);
    expect(run.conclusion).toBe('failure');
    // Every read of the shared repository named the commit its branch resolved to.
    const reads = h.fake.calls('GET', new RegExp(`/repos/${OWNER}/policies/contents/`));
    expect(reads.length).toBeGreaterThan(0);
    expect(new Set(reads.map((r) => r.query.get('ref')))).toEqual(new Set([expect.stringMatching(/^[0-9a-f]{40}$/)]));
  });

  it('through GraphQL: the layer is read at the commit its file came from', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, '_extends: policies\n')).serve();
    repo.addTree(SHARED, 'HEAD', FIRST);
    // Once the query that read the shared file is answered, the next query (its layer's) is held.
    let pushed = false;
    void (async () => {
      for (let n = 1; n < 10; n++) {
        await h.fake.answered('POST', '/graphql', n);
        const last = h.fake.calls('POST', '/graphql').at(n - 1);
        if (last && asksFor(`:${POLICY_FILE}`)(last) && !asksFor(LAYER)(last) && JSON.stringify(last.body).includes('policies')) {
          pushWhenHeld(repo, 'POST', '/graphql');
          pushed = true;
          return;
        }
      }
    })();

    const run = await reviewed(repo);

    expect(pushed).toBe(true);
    expect(run.conclusion).toBe('failure');
  });

  it('with no push, the same chain read whole enforces (the scenario is sound)', async () => {
    const repo = new FakeRepo(h.fake, pullRequest({}, '_extends: policies\n')).serve();
    repo.addTree(SHARED, 'HEAD', SECOND);
    expect((await reviewed(repo)).conclusion).toBe('failure');
  });
});

/** Each way the shared repository's default branch can fail to resolve or be read, as GitHub would show it. */
const FAULTS: { name: string; arrange: (repo: FakeRepo) => void; says: RegExp }[] = [
  {
    name: 'the branch unresolved: a 403',
    arrange: () => void h.fake.fail('GET', `/repos/${OWNER}/policies/commits/HEAD`, { status: 403, body: { message: 'no' } }, 20),
    says: /`?\S+\/policies:\.github\/gpu-justify\.yml`?.*refused the App \(403\).*Contents: read/s,
  },
  {
    name: 'the branch unresolved: a 502 after retries',
    arrange: () => void h.fake.fail('GET', `/repos/${OWNER}/policies/commits/HEAD`, { status: 502, body: { message: 'no' } }, 20),
    says: /\S+\/policies:\.github\/gpu-justify\.yml.*GitHub failed \(502\)/s,
  },
  {
    name: 'the branch unresolved: a 404 (a repository outside the installation)',
    arrange: () => void h.fake.fail('GET', `/repos/${OWNER}/policies/commits/HEAD`, { status: 404, body: { message: 'Not Found' } }, 20),
    says: /GitHub answers 404 for \S+\/policies.*Contents: read/s,
  },
  {
    name: 'the branch unresolved: a secondary rate limit (403)',
    arrange: () =>
      void h.fake.fail(
        'GET',
        `/repos/${OWNER}/policies/commits/HEAD`,
        { status: 403, body: { message: 'You have exceeded a secondary rate limit.' }, headers: { 'retry-after': '1' } },
        20,
      ),
    says: /\S+\/policies:\.github\/gpu-justify\.yml.*rate limit stopped the read/s,
  },
  {
    name: 'a layer that fails the schema, the first file valid',
    arrange: (repo) => repo.addTree(SHARED, 'HEAD', { ...FIRST, [LAYER]: 'mode: enforcing\n' }),
    says: new RegExp(`${OWNER}/policies:${LAYER.replace('.', '\\.')}`),
  },
  {
    name: 'an _extends naming a tag',
    arrange: (repo) =>
      repo.addTree(SHARED, 'HEAD', { [POLICY_FILE]: `_extends: ${OWNER}/policies:${LAYER}@v1\n`, [LAYER]: 'mode: enforce\n' }),
    says: /_extends must be "repo", "owner\/repo" or "owner\/repo:path\.yml"/,
  },
];

describe('an inherited policy whose commit cannot be read', () => {
  it.each(FAULTS)('$name: the check fails naming the file, never neutral', async ({ arrange, says }) => {
    const repo = new FakeRepo(h.fake, pullRequest({}, '_extends: policies\nheadroom: 0.2\n')).serve();
    repo.addTree(SHARED, 'HEAD', FIRST);
    arrange(repo);

    const run = await reviewed(repo);

    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toMatch(says);
    expect(stickyBody(repo)).toMatch(says);
  });
});
