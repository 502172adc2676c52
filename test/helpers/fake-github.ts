import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkRequest } from './openapi.js';

/**
 * A strict stand-in for api.github.com on 127.0.0.1: it serves only the routes a test declares,
 * records every request, checks each against GitHub's OpenAPI description, and collects an error
 * for anything unexpected (answered with 599 so the client fails loudly too).
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
}

export interface FakeResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

interface Route {
  method: string;
  pattern: string;
  regex: RegExp;
  names: string[];
  handler: RouteHandler;
}

export const UNEXPECTED_STATUS = 599;

export class FakeGitHub {
  readonly requests: FakeRequest[] = [];
  readonly errors: string[] = [];
  readonly #routes: Route[] = [];
  #tokens = 0;
  readonly #faults: { method: string; path: string | RegExp; reply: FakeResponse; remaining: number }[] = [];
  /** Milliseconds every answer waits: makes concurrent work overlap the way it does on GitHub. */
  latencyMs = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeGitHub> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGitHub(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => void fake.#handle(req, res));
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
        if (seg.startsWith(':')) return names.push(seg.slice(1)), '([^/]+)';
        if (seg.startsWith('*')) return names.push(seg.slice(1)), '(.+)';
        return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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

  /** The recorded requests of one method whose path matches. */
  calls(method: string, path: string | RegExp): FakeRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const method = req.method ?? 'GET';
    const path = decodeURIComponent(url.pathname);
    const where = `${method} ${url.pathname}${url.search}`;
    try {
      const raw = await readBody(req);
      const body = raw === '' ? undefined : (JSON.parse(raw) as unknown);
      const match = checkRequest(method, url.pathname, url.searchParams, body);
      if (!match) this.errors.push(`${where}: no such operation in GitHub's OpenAPI description`);
      else for (const p of match.problems) this.errors.push(`${where} (${match.template}): ${p}`);

      const request: FakeRequest = {
        method,
        path,
        query: url.searchParams,
        headers: req.headers,
        params: {},
        body,
        operation: match?.template ?? null,
      };
      this.requests.push(request);
      const fault = this.#faults.find(
        (f) => f.remaining > 0 && f.method === method && (typeof f.path === 'string' ? f.path === path : f.path.test(path)),
      );
      if (fault) {
        fault.remaining -= 1;
        return send(res, fault.reply.status ?? 500, fault.reply.body, fault.reply.headers);
      }
      const route = this.#routes.find((r) => r.method === method && r.regex.test(path));
      if (!route) {
        this.errors.push(`${where}: unexpected request`);
        return send(res, UNEXPECTED_STATUS, { message: `unexpected request ${where}` });
      }
      const values = route.regex.exec(path)?.slice(1) ?? [];
      route.names.forEach((name, i) => (request.params[name] = values[i] ?? ''));
      if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
      const reply = await route.handler(request);
      send(res, reply.status ?? 200, reply.body, reply.headers);
    } catch (err) {
      this.errors.push(`${where}: fake failed: ${String(err)}`);
      send(res, UNEXPECTED_STATUS, { message: 'fake failed' });
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
