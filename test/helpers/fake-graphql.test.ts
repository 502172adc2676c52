import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blobQuery } from '../../src/github/api/graphql-blob-query.js';
import { FakeGitHub } from './fake-github.js';
import { FAKE_MAX_OBJECTS, GRAPHQL_TEXT_LIMIT } from './fake-graphql.js';
import { FakeRepo } from './fake-repo.js';
import { gitBlobSha } from './fake-repo-trees.js';
import { EXAMPLE_REPO } from './payloads.js';

/** The fake's GraphQL endpoint: GitHub's answers for the App's query, refusals for anything else. */

let fake: FakeGitHub;
const BASE = 'b'.repeat(40);
const HEAD = 'c'.repeat(40);
beforeEach(async () => {
  fake = await FakeGitHub.start();
  const big = `# ${'x'.repeat(GRAPHQL_TEXT_LIMIT)}\n`;
  new FakeRepo(fake, {
    base: EXAMPLE_REPO,
    number: 1,
    baseSha: BASE,
    headSha: HEAD,
    baseFiles: { 'a.yaml': 'a: 1\n' },
    headFiles: { 'a.yaml': 'a: 2\n', 'dir/big.yaml': big, 'bin.dat': 'x\0y' },
  }).serve();
});
afterEach(() => fake.close());

async function post(body: unknown): Promise<{ data?: Record<string, Record<string, unknown> | null>; errors?: unknown[] }> {
  const res = await fetch(`${fake.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { data?: Record<string, Record<string, unknown> | null>; errors?: unknown[] };
}

const at = (ref: string, path: string, repo = EXAMPLE_REPO) => ({ repo, ref, path });

describe('the fake GraphQL endpoint', () => {
  it("answers the App's blob query as GitHub does: text, truncation, binary, trees, absent paths and repositories", async () => {
    const missing = { owner: EXAMPLE_REPO.owner, repo: '.github' };
    const { query, variables } = blobQuery([
      at(HEAD, 'a.yaml'),
      at(BASE, 'a.yaml'),
      at(HEAD, 'dir/big.yaml'),
      at(HEAD, 'bin.dat'),
      at(HEAD, 'dir'),
      at(HEAD, 'nope.yaml'),
      at('HEAD', '.github/gpu-justify.yml', missing),
    ]);
    const answer = await post({ query, variables });

    expect(Object.keys(answer.data?.r0 ?? {})).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5']);
    expect(answer.data?.r0).toMatchObject({
      b0: { __typename: 'Blob', oid: gitBlobSha(Buffer.from('a: 2\n')), byteSize: 5, isBinary: false, isTruncated: false, text: 'a: 2\n' },
      b1: { text: 'a: 1\n' },
      b2: { isTruncated: true, byteSize: GRAPHQL_TEXT_LIMIT + 3 },
      b3: { isBinary: true, text: null },
      b4: { __typename: 'Tree' },
      b5: null,
    });
    expect((answer.data?.r0?.b2 as { text: string }).text).toHaveLength(GRAPHQL_TEXT_LIMIT);
    expect(answer.data?.r1).toBeNull();
    expect(answer.errors).toEqual([expect.objectContaining({ type: 'NOT_FOUND', path: ['r1'] })]);
    expect(fake.errors).toEqual([]);
  });

  it("answers the App's directory entries as GitHub does: Git's mode as an Int, absent for a file or no path", async () => {
    const { query, variables } = blobQuery([
      { ...at(HEAD, ''), tree: true },
      { ...at(HEAD, 'dir'), tree: true },
      { ...at(HEAD, 'a.yaml'), tree: true },
      { ...at(HEAD, 'nowhere'), tree: true },
    ]);
    const answer = await post({ query, variables });

    const names = (b: string) =>
      (answer.data?.r0?.[b] as { entries: { name: string; type: string; mode: number }[] }).entries.map((e) => [e.name, e.type, e.mode]);
    expect(names('b0')).toEqual([
      ['a.yaml', 'blob', 0o100644],
      ['bin.dat', 'blob', 0o100644],
      ['dir', 'tree', 0o40000],
    ]);
    expect(names('b1')).toEqual([['big.yaml', 'blob', 0o100644]]);
    expect(answer.data?.r0).toMatchObject({ b2: { __typename: 'Blob' }, b3: null });
    expect(fake.errors).toEqual([]);
  });

  it.each([
    [
      'a field TreeEntry does not have',
      'query($o: String!, $n: String!, $x: String!) { r0: repository(owner: $o, name: $n) { b0: object(expression: $x) { ... on Tree { entries { path } } } } }',
      { o: 'a', n: 'b', x: 'c' },
    ],
    ['a literal argument', 'query { r0: repository(owner: "o", name: "n") { b0: object(expression: "x") { ... on Blob { text } } } }', {}],
    [
      'an undeclared variable',
      'query($o: String!) { r0: repository(owner: $o, name: $n) { b0: object(expression: $o) { ... on Blob { text } } } }',
      { o: 'x', n: 'y' },
    ],
    [
      'an unused variable',
      'query($o: String!, $n: String!, $x: String!, $y: String!) { r0: repository(owner: $o, name: $n) { b0: object(expression: $x) { ... on Blob { text } } } }',
      { o: 'a', n: 'b', x: 'c', y: 'd' },
    ],
    [
      'a field Blob does not have',
      'query($o: String!, $n: String!, $x: String!) { r0: repository(owner: $o, name: $n) { b0: object(expression: $x) { ... on Blob { content } } } }',
      { o: 'a', n: 'b', x: 'c' },
    ],
    [
      'a duplicate alias',
      'query($o: String!, $n: String!, $x: String!) { r0: repository(owner: $o, name: $n) { b0: object(expression: $x) { ... on Blob { text } } b0: object(expression: $x) { ... on Blob { text } } } }',
      { o: 'a', n: 'b', x: 'c' },
    ],
    ['a mutation', 'mutation { addStar }', {}],
  ])('refuses %s with an errors array and no data, and records it', async (_what, query, variables) => {
    const answer = await post({ query, variables });
    expect(answer.data).toBeUndefined();
    expect(answer.errors).toHaveLength(1);
    expect(fake.errors).toHaveLength(1);
  });

  it(`refuses more than ${FAKE_MAX_OBJECTS} blobs in one query`, async () => {
    const { query, variables } = blobQuery(Array.from({ length: FAKE_MAX_OBJECTS + 1 }, (_, i) => at(HEAD, `f${i}.yaml`)));
    expect((await post({ query, variables })).errors).toHaveLength(1);
    expect(fake.errors).toEqual([expect.stringContaining(`at most ${FAKE_MAX_OBJECTS}`)]);
  });
});
