import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeGitHub, UNEXPECTED_STATUS } from './fake-github.js';
import { openApiToJsonSchema } from './openapi.js';

/** The fake is what every App test trusts: it must flag what GitHub would refuse. */

let fake: FakeGitHub;
beforeEach(async () => {
  fake = await FakeGitHub.start();
});
afterEach(() => fake.close());

async function send(method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('FakeGitHub', () => {
  it('answers a declared route and records it', async () => {
    fake.on('PATCH', '/repos/:owner/:repo/check-runs/:id', (req) => ({ body: { id: Number(req.params.id) } }));

    expect(await send('PATCH', '/repos/o/r/check-runs/5', { status: 'completed', conclusion: 'neutral' })).toBe(200);

    expect(fake.errors).toEqual([]);
    expect(fake.requests[0]).toMatchObject({ operation: '/repos/{owner}/{repo}/check-runs/{check_run_id}', params: { id: '5' } });
  });

  it('flags an undeclared route, an unknown operation, and a body GitHub\'s schema refuses', async () => {
    fake.on('PATCH', '/repos/:owner/:repo/check-runs/:id', () => ({ body: {} }));
    const tooMany = Array.from({ length: 51 }, () => ({ path: 'a', start_line: 1, end_line: 1, annotation_level: 'notice', message: 'm' }));

    expect(await send('GET', '/repos/o/r/pulls/1')).toBe(UNEXPECTED_STATUS);
    await send('PATCH', '/repos/o/r/check-runs/5', { conclusion: 'bogus', output: { title: 't', summary: 's', annotations: tooMany } });
    await send('PATCH', '/repos/o/r/check-runs/5', { output: { title: 'no summary' } });
    expect(await send('POST', '/repos/o/r/not-an-endpoint', {})).toBe(UNEXPECTED_STATUS);

    expect(fake.errors).toEqual([
      expect.stringContaining('GET /repos/o/r/pulls/1: unexpected request'),
      expect.stringMatching(/check-runs\/5 .*body\/conclusion must be equal to one of the allowed values/),
      expect.stringMatching(/check-runs\/5 .*body\/output\/annotations must NOT have more than 50 items/),
      expect.stringMatching(/check-runs\/5 .*body\/output must have required property 'summary'/),
      expect.stringContaining("POST /repos/o/r/not-an-endpoint: no such operation in GitHub's OpenAPI description"),
      expect.stringContaining('POST /repos/o/r/not-an-endpoint: unexpected request'),
    ]);
  });

  it('flags a query parameter the operation does not take', async () => {
    fake.on('GET', '/repos/:owner/:repo/pulls/:n/files', () => ({ body: [] }));

    await send('GET', '/repos/o/r/pulls/1/files?per_page=100&ref=main');

    expect(fake.errors).toEqual([expect.stringContaining('query parameter "ref" is not in the spec')]);
  });
});

describe('openApiToJsonSchema', () => {
  it('turns nullable into a null alternative, leaving a property named "nullable" alone', () => {
    expect(
      openApiToJsonSchema({
        type: 'object',
        properties: { nullable: { type: 'string', nullable: true }, n: { enum: ['a'], nullable: true } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        nullable: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        n: { anyOf: [{ enum: ['a'] }, { type: 'null' }] },
      },
    });
  });
});
