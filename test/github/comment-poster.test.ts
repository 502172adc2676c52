import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertComment } from '../../src/github/publish/comment-poster.js';
import type { UpsertCommentOptions } from '../../src/github/publish/comment-poster.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';

const REPO = { owner: 'acme', repo: 'infra' };
const MARKER = '<!-- test:marker -->';

let fake: FakeGitHub;
let repo: FakeRepo;
beforeEach(async () => {
  fake = await FakeGitHub.start();
  repo = new FakeRepo(fake, {
    base: REPO,
    number: 9,
    baseSha: '1'.repeat(40),
    headSha: '2'.repeat(40),
    baseFiles: {},
    headFiles: {},
  }).serve();
});
afterEach(async () => {
  await fake.close();
  expect(fake.errors).toEqual([]);
});

function post(body: string, createIfAbsent = true, over: Partial<UpsertCommentOptions> = {}) {
  const options: UpsertCommentOptions = {
    repo: REPO,
    issueNumber: 9,
    marker: MARKER,
    author: 'gpu-justify[bot]',
    body,
    createIfAbsent,
    ...over,
  };
  return upsertComment(testOctokit(fake.url), options);
}

const LIST = '/repos/acme/infra/issues/9/comments';
const ONE = /^\/repos\/acme\/infra\/issues\/comments\/\d+$/;

describe('upsertComment', () => {
  it('creates, then leaves an unchanged comment alone, then edits it when the text changes', async () => {
    expect(await post(`${MARKER}\nfirst`)).toBe('created');
    expect(await post(`${MARKER}\nfirst`)).toBe('unchanged');
    expect(await post(`${MARKER}\nsecond`)).toBe('updated');

    expect(repo.comments.map((c) => c.body)).toEqual([`${MARKER}\nsecond`]);
    expect(fake.calls('PATCH', /comments/)).toHaveLength(1);
  });

  it('finds its comment on a later page, and ignores a person quoting the marker', async () => {
    repo.perPage = 3;
    for (let i = 0; i < 7; i++) repo.addComment(`chatter ${i}`, 'User');
    repo.addComment(`> ${MARKER} quoted`, 'User');
    const ours = repo.addComment(`${MARKER}\nold`);

    expect(await post(`${MARKER}\nnew`)).toBe('updated');

    expect(fake.calls('PATCH', /comments/).map((r) => r.path)).toEqual([`/repos/acme/infra/issues/comments/${ours.id}`]);
    expect(repo.comments.filter((c) => c.body.includes('new'))).toHaveLength(1);
  });

  it('creates nothing when asked not to and none exists', async () => {
    expect(await post(`${MARKER}\nnothing to say`, false)).toBe('skipped');
    expect(repo.comments).toEqual([]);
  });

  it('clips an oversized body and keeps the marker so it is found next time', async () => {
    expect(await post(`${MARKER}\n${'z'.repeat(70_000)}`)).toBe('created');
    const body = repo.comments[0]?.body ?? '';
    expect(body.length).toBe(65_536);
    expect(body.endsWith(MARKER)).toBe(true);
  });

  it('costs one more list after creating, and nothing more when editing', async () => {
    expect(await post(`${MARKER}\nfirst`)).toBe('created');
    expect(fake.calls('GET', LIST)).toHaveLength(2);
    expect(await post(`${MARKER}\nsecond`)).toBe('updated');
    expect(fake.calls('GET', LIST)).toHaveLength(3);
    expect(fake.calls('DELETE', ONE)).toEqual([]);
  });
});

describe('upsertComment with two replicas', () => {
  it('converges on the oldest comment when both found none and both created one', async () => {
    // The first creation waits until the other replica has looked too, and found nothing.
    fake.hold('POST', LIST, fake.answered('GET', LIST, 2));
    const outcomes = await Promise.all([post(`${MARKER}\nfrom a`), post(`${MARKER}\nfrom b`)]);

    expect(fake.calls('POST', LIST)).toHaveLength(2);
    expect(repo.comments).toHaveLength(1);
    const [survivor] = repo.comments;
    // Only the higher id was deleted, by both replicas at most once each.
    const deleted = fake.calls('DELETE', ONE).map((r) => Number(r.path.split('/').pop()));
    expect(deleted.length).toBeGreaterThanOrEqual(1);
    expect(deleted.length).toBeLessThanOrEqual(2);
    expect(deleted.every((id) => id > (survivor?.id ?? Infinity))).toBe(true);
    // The replica whose comment lost wrote its text to the survivor: the later text stands.
    expect([...outcomes].sort()).toEqual(['created', 'merged']);
    expect(fake.calls('PATCH', ONE)).toHaveLength(1);
    expect(survivor?.body).toBe(`${MARKER}\nfrom ${outcomes[0] === 'merged' ? 'a' : 'b'}`);
    // Later reviews find the one comment and edit it.
    expect(await post(`${MARKER}\nlater`)).toBe('updated');
    expect(repo.comments.map((c) => c.body)).toEqual([`${MARKER}\nlater`]);
  });

  it('takes a 404 on deleting its own copy as done: the other replica deleted it first', async () => {
    const older = repo.addComment(`${MARKER}\nfrom the other replica`);
    fake.fail('DELETE', ONE, { status: 404, body: { message: 'Not Found' } });

    // Looked up before the other replica created its comment: none then.
    expect(await post(`${MARKER}\nours`, true, { existing: null })).toBe('merged');
    expect(fake.calls('PATCH', ONE).map((r) => r.path)).toEqual([`/repos/acme/infra/issues/comments/${older.id}`]);
    expect(repo.comments.find((c) => c.id === older.id)?.body).toBe(`${MARKER}\nours`);
  });

  it('does not write its text over the survivor once a newer review is under way', async () => {
    const older = repo.addComment(`${MARKER}\nnewer head`);
    expect(await post(`${MARKER}\nolder head`, true, { existing: null, stillCurrent: () => Promise.resolve(false) })).toBe('merged');
    expect(fake.calls('PATCH', ONE)).toEqual([]);
    expect(repo.comments).toEqual([older]);
    expect(older.body).toBe(`${MARKER}\nnewer head`);
  });

  it('writes what merge makes of the text it replaces, whether just read or found after creating', async () => {
    const keep = (theirs: string) => `${MARKER}\nours${theirs.includes('pinned') ? ' + pinned' : ''}`;
    const older = repo.addComment(`${MARKER}\nfrom the other replica, pinned`);

    // An older copy found only after creating ours: its text is merged into, ours removed.
    expect(await post(`${MARKER}\nours`, true, { existing: null, merge: keep })).toBe('merged');
    expect(repo.comments).toEqual([older]);
    expect(older.body).toBe(`${MARKER}\nours + pinned`);

    // Our comment as just read: merged the same way, so an unchanged result writes nothing.
    expect(await post(`${MARKER}\nours`, true, { merge: keep })).toBe('unchanged');
    older.body = `${MARKER}\nplain`;
    expect(await post(`${MARKER}\nours`, true, { merge: keep })).toBe('updated');
    expect(older.body).toBe(`${MARKER}\nours`);
    expect(fake.calls('PATCH', ONE)).toHaveLength(2);
  });

  it('never deletes another bot’s comment or a person’s, and heals duplicates on an edit', async () => {
    const person = repo.addComment(`> ${MARKER} quoted`, 'User');
    const first = repo.addComment(`${MARKER}\nfirst`);
    const second = repo.addComment(`${MARKER}\nsecond`);

    expect(await post(`${MARKER}\nthird`)).toBe('updated');
    expect(repo.comments.map((c) => c.id)).toEqual([person.id, first.id]);
    expect(first.body).toBe(`${MARKER}\nthird`);
    expect(fake.calls('DELETE', ONE).map((r) => r.path)).toEqual([`/repos/acme/infra/issues/comments/${second.id}`]);
  });

  it('keeps its comment when looking for duplicates fails, and says so', async () => {
    const warned: string[] = [];
    fake.fail('GET', LIST, { status: 502, body: { message: 'Server Error' } });
    const log = { warn: (_obj: object, msg: string) => void warned.push(msg) };

    expect(await post(`${MARKER}\nbody`, true, { existing: null, log: log as UpsertCommentOptions['log'] & object })).toBe('created');
    expect(repo.comments).toHaveLength(1);
    expect(warned).toEqual(['could not remove duplicate comments']);
  });
});
