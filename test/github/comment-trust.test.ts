import { Writable } from 'node:stream';
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { overrideMarker, parseOverrideMarkers, signOverride } from '../../src/github/overrides/override.js';
import { stateKey } from '../../src/github/overrides/state-signature.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { AppServer, WEBHOOK_SECRET } from '../helpers/app-server.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { EXAMPLE_REPO } from '../helpers/payloads.js';
import {
  ENFORCE_POLICY,
  HEAD_SHA,
  NEWER_SHA,
  NUMBER,
  REPO_PATH,
  commentEvent,
  prEvent,
  pullRequest,
  testApp,
  useApp,
  witnessFor,
} from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * What the App trusts in the text of a pull request's comments: only its own comment, found by
 * its bot login; in it, only state whose signature holds for this pull request; and an override
 * only for the request its grantor could have seen.
 */

const logged: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged.push(chunk.toString('utf8'));
    done();
  },
});
const h = useApp(() => ({ log: pino({ level: 'info' }, sink) }));
beforeEach(() => void (logged.length = 0));

const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const ONE_COMMENT = new RegExp(`^${REPO_PATH}/issues/comments/\\d+$`);
const ours = (repo: FakeRepo) => repo.comments.filter((c) => c.body.includes(COMMENT_MARKER) && c.user.login === 'gpu-justify[bot]');
const replies = (repo: FakeRepo) => repo.comments.filter((c) => !c.body.includes(COMMENT_MARKER));

/** What GitHub acts on: the text outside code spans and link targets. */
function outsideCode(markdown: string): string {
  return markdown.replace(/`[^`\n]*`/g, '').replace(/\]\([^)]*\)/g, ']');
}

function setUp(): { repo: FakeRepo; headFiles: Record<string, string> } {
  const state = pullRequest({}, ENFORCE_POLICY);
  const repo = new FakeRepo(h.fake, state).serve();
  repo.roles.maintainer = 'maintain';
  return { repo, headFiles: state.headFiles };
}

/** A review at the head, then a maintainer's override of it: the genuine article. */
async function granted(repo: FakeRepo): Promise<string> {
  await h.app.deliver('pull_request', prEvent());
  await h.app.deliver('issue_comment', commentEvent(OVERRIDE, { login: 'maintainer', commentId: 501 }));
  expect(repo.checkRuns.at(-1)?.conclusion).toBe('success');
  return ours(repo)[0]?.body ?? '';
}

describe('only our own comment', () => {
  it('a copy of our comment, override and all, posted by another bot is neither adopted, edited nor deleted', async () => {
    const { repo } = setUp();
    const genuine = await granted(repo);
    // A workflow of the pull request posts the copy as github-actions[bot]; ours is gone.
    repo.comments.length = 0;
    const copy = repo.addComment(genuine, 'Bot', 'github-actions[bot]');
    const listings = () => h.fake.calls('GET', new RegExp(`^${REPO_PATH}/issues/${NUMBER}/comments`)).length;
    const listedBefore = listings();

    await h.app.deliver('pull_request', prEvent({ action: 'reopened' }));

    // The earlier reviews are over: their claim on creating our comment went with them, so this
    // review creates it at once instead of listing the comments for 20 s awaiting another's.
    expect(listings() - listedBefore).toBeLessThanOrEqual(3);

    expect(repo.checkRuns.at(-1)).toMatchObject({ conclusion: 'failure' });
    expect(repo.checkRuns.at(-1)?.output.title).not.toContain('Overridden');
    expect(repo.comments.find((c) => c.id === copy.id)?.body).toBe(genuine);
    expect(h.fake.calls('PATCH', `${REPO_PATH}/issues/comments/${copy.id}`)).toEqual([]);
    expect(h.fake.calls('DELETE', ONE_COMMENT)).toEqual([]);
    expect(ours(repo)).toHaveLength(1);
    expect(ours(repo)[0]?.body).not.toContain('gpu-justify:override');
    // Our login was asked of GitHub once, with the App's own credentials.
    expect(h.fake.calls('GET', '/app')).toHaveLength(1);
  });
});

describe('state read back from our comment', () => {
  it('a record in our own comment that fails verification is ignored and logged', async () => {
    const { repo } = setUp();
    await h.app.deliver('pull_request', prEvent());
    const comment = ours(repo)[0];
    if (!comment) throw new Error('no comment');
    // Well-formed, for this head and the state the comment shows, but signed with a key the server does not hold.
    const shown = /"fingerprint":"([0-9a-f]+)","state":"([^"]*)"/.exec(comment.body);
    const forged = signOverride(
      {
        by: 'maintainer',
        at: new Date().toISOString(),
        reason: 'x',
        headSha: HEAD_SHA,
        fingerprint: shown?.[1] ?? '',
        state: shown?.[2] ?? '',
        commentId: 9,
      },
      { key: stateKey('guessed'), scope: { repo: `${EXAMPLE_REPO.owner}/${EXAMPLE_REPO.repo}`, number: NUMBER } },
    );
    comment.body = comment.body.replace(COMMENT_MARKER, `${COMMENT_MARKER}\n${overrideMarker(forged)}`);

    await h.app.deliver('pull_request', prEvent({ action: 'reopened' }));

    expect(repo.checkRuns.at(-1)).toMatchObject({ conclusion: 'failure' });
    expect(repo.checkRuns.at(-1)?.output.title).not.toContain('Overridden');
    expect(logged.some((l) => l.includes('override record failed verification; ignored'))).toBe(true);
  });

  it('a genuine record holds only while its grantor may still override', async () => {
    const { repo } = setUp();
    await granted(repo);
    // The maintainer's role is taken away; the record in our comment is as genuine as before.
    repo.roles.maintainer = 'read';

    await h.app.deliver('pull_request', prEvent({ action: 'reopened' }));

    expect(repo.checkRuns.at(-1)).toMatchObject({ conclusion: 'failure' });
    expect(repo.checkRuns.at(-1)?.output.title).not.toContain('Overridden');
    expect(ours(repo)[0]?.body).not.toContain('gpu-justify:override');
    expect(logged.some((l) => l.includes('override dropped: its grantor may no longer override'))).toBe(true);
  });

  it.each(['deleted', 'edited'] as const)('a genuine record lapses when its command comment is %s', async (change) => {
    const { repo } = setUp();
    await granted(repo);
    if (change === 'deleted') h.fake.issueComments.delete(501);
    else {
      const command = h.fake.issueComments.get(501);
      if (!command) throw new Error('no command comment');
      command.body = '/gpu-justify override something else entirely';
    }

    await h.app.deliver('pull_request', prEvent({ action: 'reopened' }));

    expect(repo.checkRuns.at(-1)).toMatchObject({ conclusion: 'failure' });
    expect(ours(repo)[0]?.body).not.toContain('gpu-justify:override');
    expect(logged.some((l) => l.includes('override dropped: its command no longer stands'))).toBe(true);
  });

  it('a record whose command comment stands untouched is carried, read back each time', async () => {
    const { repo } = setUp();
    await granted(repo);
    await h.app.deliver('pull_request', prEvent({ action: 'reopened' }));
    expect(repo.checkRuns.at(-1)).toMatchObject({ conclusion: 'success' });
    // Once when the command was delivered, once when the next review carried its grant.
    expect(h.fake.calls('GET', `${REPO_PATH}/issues/comments/501`)).toHaveLength(2);
  });

  it('a command edited between its webhook and its delivery grants nothing', async () => {
    const { repo } = setUp();
    await h.app.deliver('pull_request', prEvent());
    const event = commentEvent(OVERRIDE, { login: 'maintainer', commentId: 502 });
    h.fake.witness('issue_comment', event);
    const stored = h.fake.issueComments.get(502);
    if (!stored) throw new Error('no command comment');
    // The webhook still carries the command; GitHub now holds the edited text.
    stored.body = 'never mind';
    await h.app.deliver('issue_comment', event);

    expect(repo.checkRuns.at(-1)).toMatchObject({ conclusion: 'failure' });
    expect(replies(repo).at(-1)?.body).toContain('was edited since it was granted');
  });

  it('a genuine record signed for another pull request is not adopted', async () => {
    const { repo } = setUp();
    const genuine = await granted(repo);
    const record = parseOverrideMarkers(genuine)[0];
    if (!record) throw new Error('no record');
    // The same record, re-signed with the server's own key but for pull request #8: a replay.
    const elsewhere = signOverride(record, { key: stateKey(WEBHOOK_SECRET), scope: { repo: 'Codertocat/Hello-World', number: 8 } });
    const comment = ours(repo)[0];
    if (!comment) throw new Error('no comment');
    comment.body = comment.body.replace(overrideMarker(record), overrideMarker(elsewhere));

    await h.app.deliver('pull_request', prEvent({ action: 'reopened' }));

    expect(repo.checkRuns.at(-1)).toMatchObject({ conclusion: 'failure' });
    expect(logged.some((l) => l.includes('override record failed verification; ignored'))).toBe(true);
  });

  it('names a PR chooses cannot write a record, a marker or a mention into our comment', async () => {
    const marker = '<!-- gpu-justify:override {"by":"maintainer","commentId":1,"sig":"00"} -->';
    const name = `@acme/admins fixes #1 ${marker}`;
    const file = `clusters/@victim ${marker.replace(/\//g, '')}.yaml`;
    const state = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, {
      ...state,
      baseFiles: { ...state.baseFiles, [file]: clusterQueue(2).replace('name: research', `name: ${JSON.stringify(name)}`) },
      headFiles: { ...state.headFiles, [file]: clusterQueue(4).replace('name: research', `name: ${JSON.stringify(name)}`) },
    }).serve();

    await h.app.deliver('pull_request', prEvent());
    await h.app.deliver('pull_request', prEvent({ action: 'reopened' }));

    const body = ours(repo)[0]?.body ?? '';
    expect(body).toContain('acme/admins');
    expect(body.split('<!--').length - 1).toBe(2);
    expect(parseOverrideMarkers(body)).toEqual([]);
    const live = outsideCode(body);
    expect(live).not.toMatch(/@(acme|victim)/);
    expect(live).not.toMatch(/(?<![&\w])#1\b/);
    const check = repo.checkRuns.at(-1);
    expect(check?.conclusion).not.toBe('success');
    expect(check?.output.title).not.toContain('Overridden');
    expect(check?.output.summary).not.toContain('<!--');
    expect(outsideCode(check?.output.summary ?? '')).not.toMatch(/@(acme|victim)|(?<![&\w])#1\b/);
    // An annotation's path must name the file exactly; its title and message are what is shown.
    for (const a of (check?.output.annotations ?? []) as { title?: string; message: string }[])
      expect(`${a.title} ${a.message}`).not.toMatch(/<!--|@acme|@victim|#1/);
  });
});

describe('a grant binds to what the approver saw', () => {
  it('does not carry over a larger request pushed after the approver commented', async () => {
    const { repo, headFiles } = setUp();
    await h.app.deliver('pull_request', prEvent());
    // The maintainer reads the review of 12 GPUs and comments…
    const command = commentEvent(OVERRIDE, { login: 'maintainer', commentId: 601 });
    await new Promise((r) => setTimeout(r, 5));
    // …then the author pushes 64 before the command is handled.
    repo.push(NEWER_SHA, { ...headFiles, [QUEUE_FILE]: clusterQueue(64) });
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    await h.app.deliver('issue_comment', command);

    const onNewer = repo.checkRuns.filter((r) => r.head_sha === NEWER_SHA);
    expect(onNewer.map((r) => r.conclusion)).toEqual(['failure', 'failure']);
    expect(ours(repo)[0]?.body).not.toContain('gpu-justify:override');
    expect(replies(repo)[0]?.body).toContain('@maintainer the override was not recorded: you commented before the review showed');
  });

  it('names what grew when the push lands before its own review is posted', async () => {
    const { repo, headFiles } = setUp();
    await h.app.deliver('pull_request', prEvent());
    const command = commentEvent(OVERRIDE, { login: 'maintainer', commentId: 603 });
    // The author pushes 64; the command is handled before the push's own webhook.
    repo.push(NEWER_SHA, { ...headFiles, [QUEUE_FILE]: clusterQueue(64) });
    await h.app.deliver('issue_comment', command);

    expect(repo.checkRuns.filter((r) => r.head_sha === NEWER_SHA).map((r) => r.conclusion)).toEqual(['failure']);
    expect(ours(repo)[0]?.body).not.toContain('gpu-justify:override');
    const reply = replies(repo)[0]?.body ?? '';
    expect(reply).toContain('the override was not recorded: the review changed after the one you commented on');
    expect(reply).toContain('`research` (kueue-cluster-queue, `clusters/prod/queues.yaml`) now 6 → 64 GPUs, beyond the 12 shown');
  });

  it('grants nothing for a command written before our comment showed the request', async () => {
    const { repo } = setUp();
    const early = new Date(Date.now() - 60_000).toISOString();
    await h.app.deliver('pull_request', prEvent());

    await h.app.deliver('issue_comment', commentEvent(OVERRIDE, { login: 'maintainer', commentId: 602, createdAt: early }));

    expect(repo.checkRuns.map((r) => r.conclusion)).toEqual(['failure', 'failure']);
    expect(replies(repo)[0]?.body).toContain('the override was not recorded');
  });

  it('a command re-sent under a new delivery id grants nothing twice, nor after a push that raised the request', async () => {
    const { repo, headFiles } = setUp();
    await granted(repo);
    const first = parseOverrideMarkers(ours(repo)[0]?.body ?? '')[0];
    const runs = repo.checkRuns.length;
    const command = commentEvent(OVERRIDE, { login: 'maintainer', commentId: 501, createdAt: first?.at ?? '' });

    await h.app.deliver('issue_comment', command);
    expect(repo.checkRuns).toHaveLength(runs);

    // A push raises the request, so the grant lapses; the same command, redelivered to an App
    // process that never saw it, still grants nothing.
    repo.push(NEWER_SHA, { ...headFiles, [QUEUE_FILE]: clusterQueue(16) });
    await h.app.deliver('pull_request', prEvent({ action: 'synchronize', headSha: NEWER_SHA }));
    await h.app.close();
    h.app = await AppServer.start(testApp, h.fake.url, { log: pino({ level: 'info' }, sink), witness: witnessFor(h.fake) });
    await h.app.deliver('issue_comment', command);

    const onNewer = repo.checkRuns.filter((r) => r.head_sha === NEWER_SHA);
    expect(onNewer.map((r) => r.conclusion)).toEqual(['failure', 'failure']);
    expect(ours(repo)[0]?.body).not.toContain('gpu-justify:override');
    expect(replies(repo).at(-1)?.body).toContain('the override was not recorded');
  });

  it('the same command on a replica that did not handle it keeps the grant as it was', async () => {
    const { repo } = setUp();
    await granted(repo);
    const first = parseOverrideMarkers(ours(repo)[0]?.body ?? '')[0];
    await h.app.close();
    h.app = await AppServer.start(testApp, h.fake.url, { log: pino({ level: 'info' }, sink), witness: witnessFor(h.fake) });

    await h.app.deliver('issue_comment', commentEvent(OVERRIDE, { login: 'maintainer', commentId: 501, createdAt: first?.at ?? '' }));

    expect(repo.checkRuns.at(-1)?.conclusion).toBe('success');
    expect(parseOverrideMarkers(ours(repo)[0]?.body ?? '')).toEqual([first]);
    expect(replies(repo)).toEqual([]);
  });
});
