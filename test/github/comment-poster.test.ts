import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertComment } from '../../src/github/comment-poster.js';
import type { UpsertCommentOptions } from '../../src/github/comment-poster.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { testOctokit } from '../helpers/octokit.js';

const REPO = { owner: 'acme', repo: 'infra' };
const MARKER = '<!-- test:marker -->';

let fake: FakeGitHub;
let repo: FakeRepo;
beforeEach(async () => {
  fake = await FakeGitHub.start();
  repo = new FakeRepo(fake, { base: REPO, number: 9, baseSha: '1'.repeat(40), headSha: '2'.repeat(40), baseFiles: {}, headFiles: {} }).serve();
});
afterEach(async () => {
  await fake.close();
  expect(fake.errors).toEqual([]);
});

function post(body: string, createIfAbsent = true) {
  const options: UpsertCommentOptions = { repo: REPO, issueNumber: 9, marker: MARKER, body, createIfAbsent };
  return upsertComment(testOctokit(fake.url), options);
}

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
});
