import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forgetGraphqlFailures } from '../../src/github/api/graphql-blobs.js';
import { mediaTypeProblem } from './fake-media-types.js';
import { checkRequest } from './openapi.js';
import { escapeRegex } from '../../src/util/escape-regex.js';

/**
 * A strict stand-in for api.github.com on 127.0.0.1: it serves only the routes a test declares,
 * records every request, checks each against GitHub's OpenAPI description (custom media types
 * included), and collects an error for anything unexpected (answered with 599 so the client fails
 * loudly too).
 */

export interface FakeRequest {
  method: string;
  /** Decoded path, without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  params: Record<string, string>;
  /** Parsed JSON body; undefined when there was none. */
  body: unknown;
  /** The OpenAPI path template the request matched. */
  operation: string | null;
  /** Bytes of the answer's body written to the client so far: all of it, unless it stopped reading. */
  bytesSent: number;
  /** performance.now() when the request arrived, and when its answer began (undefined until then). */
  arrivedAt: number;
  answeredAt?: number;
}

export interface FakeResponse {
  status?: number;
  /** Sent as JSON. */
  body?: unknown;
  /**
   * Sent as they are instead of `body`, in chunks, one per turn of the event loop: on loopback
   * the kernel's socket buffers would take megabytes at once, so without pacing a client that
   * stops reading early would still have been sent everything, which GitHub's network would not do.
   */
  raw?: Uint8Array;
  headers?: Record<string, string>;
}

/** Bytes of a raw body written per turn of the event loop. */
export const RAW_CHUNK_BYTES = 64 * 1024;

export type RouteHandler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

interface Route {
  method: string;
  pattern: string;
  regex: RegExp;
  names: string[];
  handler: RouteHandler;
}

export const UNEXPECTED_STATUS = 599;

export interface WitnessedComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  created_at: string;
  updated_at: string;
}

export class FakeGitHub {
  readonly requests: FakeRequest[] = [];
  readonly errors: string[] = [];
  readonly #routes: Route[] = [];
  #tokens = 0;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #faults: { method: string; path: string | RegExp; reply: FakeResponse; remaining: number }[] = [];
  readonly #holds: { method: string; path: string | RegExp; release: Promise<unknown>; arrived: (r: FakeRequest) => void }[] = [];
  readonly #answered: FakeRequest[] = [];
  readonly #waiters: { method: string; path: string | RegExp; count: number; resolve: () => void }[] = [];
  /** Milliseconds every answer waits: makes concurrent work overlap the way it does on GitHub. */
  latencyMs = 0;
  /**
   * Comments people wrote, as GitHub holds them once it has sent their `issue_comment` webhook:
   * what a `GET …/issues/comments/{id}` answers for a comment that is not one of a repo's own.
   */
  readonly issueComments = new Map<number, WitnessedComment>();
  readonly #witnessed = new Set<number>();

  /** Called for every webhook the tests deliver: GitHub stores a comment before it tells anyone. */
  witness(event: string, payload: unknown): void {
    if (event !== 'issue_comment') return;
    const comment = (payload as { comment?: WitnessedComment }).comment;
    // A redelivery does not undo an edit or a deletion made since: only a new comment is stored.
    if (!comment || this.#witnessed.has(comment.id)) return;
    this.#witnessed.add(comment.id);
    this.issueComments.set(comment.id, { ...comment, user: { ...comment.user } });
  }
  /** When set, the milliseconds each answer waits instead of `latencyMs` (a jittered delay). */
  delay: ((req: FakeRequest) => number) | null = null;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeGitHub> {
    // A new GitHub: whatever an earlier fake on a reused port did to GraphQL is not this one's.
    forgetGraphqlFailures();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGitHub(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      const handled = fake.#handle(req, res);
      fake.#inFlight.add(handled);
      void handled.finally(() => fake.#inFlight.delete(handled));
    });
    // The App as its own JWT sees it: its comments are written as `gpu-justify[bot]`.
    fake.on('GET', '/app', () => ({ body: { id: 12345, slug: 'gpu-justify', name: 'gpu-justify', owner: { login: 'Codertocat' } } }));
    fake.on('POST', '/app/installations/:installation_id/access_tokens', () => ({
      status: 201,
      body: {
        token: `ghs_fake${++fake.#tokens}`,
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        permissions: { checks: 'write', contents: 'read', pull_requests: 'write', issues: 'write' },
        repository_selection: 'all',
      },
    }));
    return fake;
  }

  /**
   * Declares a route. `:name` matches one segment, `*name` the rest of the path. A later
   * declaration of the same method and pattern replaces the earlier one.
   */
  on(method: string, pattern: string, handler: RouteHandler): this {
    const names: string[] = [];
    const source = pattern
      .split('/')
      .map((seg) => {
        if (seg.startsWith(':')) return (names.push(seg.slice(1)), '([^/]+)');
        if (seg.startsWith('*')) return (names.push(seg.slice(1)), '(.+)');
        return escapeRegex(seg);
      })
      .join('/');
    const existing = this.#routes.findIndex((r) => r.method === method && r.pattern === pattern);
    const route = { method, pattern, regex: new RegExp(`^${source}$`), names, handler };
    if (existing >= 0) this.#routes[existing] = route;
    else this.#routes.push(route);
    return this;
  }

  /**
   * Answers the next `times` matching requests with `reply` instead of their route: a fault
   * GitHub might have (a 502, a rate limit) in front of state a FakeRepo keeps.
   */
  fail(method: string, path: string | RegExp, reply: FakeResponse, times = 1): this {
    this.#faults.push({ method, path, reply, remaining: times });
    return this;
  }

  /**
   * Holds the next matching request before its route answers (before it changes anything) until
   * `release` settles, so a test can make two clients interleave the way it means to rather than
   * by luck. `arrived` resolves with the request once it is being held.
   */
  hold(method: string, path: string | RegExp, release: Promise<unknown>): { arrived: Promise<FakeRequest> } {
    let arrived!: (r: FakeRequest) => void;
    const promise = new Promise<FakeRequest>((resolve) => (arrived = resolve));
    this.#holds.push({ method, path, release, arrived });
    return { arrived: promise };
  }

  /** Resolves once `count` matching requests have been answered by their routes. */
  answered(method: string, path: string | RegExp, count = 1): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push({ method, path, count, resolve });
      this.#wake();
    });
  }

  #wake(): void {
    for (const w of [...this.#waiters]) {
      if (this.#answered.filter((r) => matches(r.method, r.path, w)).length < w.count) continue;
      this.#waiters.splice(this.#waiters.indexOf(w), 1);
      w.resolve();
    }
  }

  /** The recorded requests of one method whose path matches. */
  calls(method: string, path: string | RegExp): FakeRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }

  /** Resolves once every answer begun has been sent whole or abandoned by its client. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    // GitHub Enterprise Server serves the same REST API under /api/v3 (Probot's GHE_HOST).
    if (url.pathname.startsWith('/api/v3/')) url.pathname = url.pathname.slice('/api/v3'.length);
    // …and GraphQL at /api/graphql.
    else if (url.pathname === '/api/graphql') url.pathname = '/graphql';
    const method = req.method ?? 'GET';
    const path = decodeURIComponent(url.pathname);
    const where = `${method} ${url.pathname}${url.search}`;
    try {
      const raw = await readBody(req);
      const body = raw === '' ? undefined : (JSON.parse(raw) as unknown);
      // GraphQL is not in the REST description: its route checks the query itself.
      const graphql = method === 'POST' && url.pathname === '/graphql';
      const match = graphql ? { template: '/graphql', problems: [] } : checkRequest(method, url.pathname, url.searchParams, body);
      if (!match) this.errors.push(`${where}: no such operation in GitHub's OpenAPI description`);
      else {
        const mediaType = mediaTypeProblem(method, match.template, req.headers.accept);
        for (const p of [...match.problems, ...(mediaType === null ? [] : [mediaType])])
          this.errors.push(`${where} (${match.template}): ${p}`);
      }

      const request: FakeRequest = {
        method,
        path,
        query: url.searchParams,
        headers: req.headers,
        params: {},
        body,
        operation: match?.template ?? null,
        bytesSent: 0,
        arrivedAt: performance.now(),
      };
      this.requests.push(request);
      const fault = this.#faults.find(
        (f) => f.remaining > 0 && f.method === method && (typeof f.path === 'string' ? f.path === path : f.path.test(path)),
      );
      if (fault) {
        fault.remaining -= 1;
        request.answeredAt = performance.now();
        return await send(res, request, fault.reply);
      }
      const route = this.#routes.find((r) => r.method === method && r.regex.test(path));
      if (!route) {
        this.errors.push(`${where}: unexpected request`);
        return await send(res, request, { status: UNEXPECTED_STATUS, body: { message: `unexpected request ${where}` } });
      }
      const values = route.regex.exec(path)?.slice(1) ?? [];
      route.names.forEach((name, i) => (request.params[name] = values[i] ?? ''));
      const wait = this.delay?.(request) ?? this.latencyMs;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const held = this.#holds.findIndex((h) => matches(method, path, h));
      if (held >= 0) {
        const [h] = this.#holds.splice(held, 1);
        h?.arrived(request);
        await h?.release;
      }
      const reply = await route.handler(request);
      request.answeredAt = performance.now();
      this.#answered.push(request);
      this.#wake();
      await send(res, request, { ...reply, status: reply.status ?? 200 });
    } catch (err) {
      this.errors.push(`${where}: fake failed: ${String(err)}`);
      if (!res.headersSent) await send(res, null, { status: UNEXPECTED_STATUS, body: { message: 'fake failed' } });
    }
  }
}

function matches(method: string, path: string, want: { method: string; path: string | RegExp }): boolean {
  return want.method === method && (typeof want.path === 'string' ? want.path === path : want.path.test(path));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function send(res: ServerResponse, request: FakeRequest | null, reply: FakeResponse): Promise<void> {
  const status = reply.status ?? 500;
  if (reply.raw === undefined) {
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...reply.headers,
    });
    res.end(text);
    if (request) request.bytesSent = Buffer.byteLength(text);
    return;
  }
  const bytes = reply.raw;
  res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': bytes.length, ...reply.headers });
  // res.closed turns true once the client has gone (its 'close' was emitted).
  let offset = 0;
  while (offset < bytes.length && !res.closed) {
    const chunk = bytes.subarray(offset, offset + RAW_CHUNK_BYTES);
    res.write(chunk);
    offset += chunk.length;
    if (request) request.bytesSent = offset;
    // The client's reads (and its giving up) run before the next chunk is written.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!res.closed) res.end();
}
