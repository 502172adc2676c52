import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeRequest } from '../../../test/helpers/fake-github.js';
import { graphqlAnswer } from '../../../test/helpers/fake-graphql.js';
import { checkRequest } from '../../../test/helpers/openapi.js';
import { seeded } from '../../lib/measure.js';

/**
 * GitHub's REST API for many pull requests of one repository, on 127.0.0.1, under `/api/v3` as
 * Probot addresses GitHub Enterprise Server (GHE_HOST). State lives in memory and is inspected
 * after a run; a sample of requests is checked against GitHub's OpenAPI description.
 */

export interface LoadPull {
  number: number;
  baseSha: string;
  headSha: string;
}

export interface LoadComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
}

export interface LoadCheckRun {
  id: number;
  headSha: string;
  status: string;
  conclusion: string | null;
  title: string;
  externalId: string;
  annotations: number;
}

const PREFIX = '/api/v3';

export class LoadFakeGitHub {
  readonly pulls = new Map<number, LoadPull>();
  readonly trees = new Map<string, Record<string, string>>();
  readonly comments: LoadComment[] = [];
  /** Comments holding `countMarker` ever created per issue, those deleted since included. */
  readonly markedCreated = new Map<number, number>();
  countMarker = '';
  readonly checkRuns = new Map<number, LoadCheckRun>();
  readonly reactions = new Map<number, string[]>();
  /** OpenAPI problems of sampled requests, and requests no route answered. */
  readonly errors: string[] = [];
  /** Every request body and query, for the secrets search. */
  readonly sent: string[] = [];
  requests = 0;
  /** When each content-creating or changing write arrived (epoch ms), by installation (known by its token): GraphQL reads and token requests are not writes. */
  readonly writeTimes = new Map<number, number[]>();
  /** Each write as it arrived: which installation, when, what (to name the closest ones). */
  readonly writeLog: { installation: number; at: number; what: string }[] = [];
  readonly #tokens = new Map<string, number>();
  validated = 0;
  readonly #sampled: { method: string; path: string; query: URLSearchParams; body: unknown }[] = [];
  /** Each `validateEvery`-th request is checked against the OpenAPI description (0: none). */
  validateEvery = 10;
  /** Each answer waits between these many ms (uniform, seeded), as GitHub over a network does; null: at once. */
  latencyMs: { min: number; max: number } | null = null;
  #random = seeded(7);
  #nextId = 5000;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    readonly owner: string,
    readonly repo: string,
  ) {}

  static async start(owner: string, repo: string): Promise<LoadFakeGitHub> {
    const server = createServer();
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new LoadFakeGitHub(server, `127.0.0.1:${port}`, owner, repo);
    server.on('request', (req, res) => void fake.#handle(req, res));
    return fake;
  }

  commentsOf(issue: number): LoadComment[] {
    return this.comments.filter((c) => c.issue === issue);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://${this.origin}`);
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    this.requests++;
    this.sent.push(`${url.pathname}${url.search} ${raw}`);
    const path = decodeURIComponent(url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname);
    if (method !== 'GET' && path !== '/api/graphql' && !path.endsWith('/access_tokens')) {
      const installation = this.#tokens.get(String(req.headers.authorization).replace(/^(token|bearer) /i, '')) ?? 0;
      this.writeTimes.set(installation, [...(this.writeTimes.get(installation) ?? []), Date.now()]);
      this.writeLog.push({ installation, at: Date.now(), what: `${method} ${path}` });
    }
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      return send(res, 400, { message: 'Problems parsing JSON' });
    }
    // GraphQL is not in the REST description; its queries are checked by graphqlAnswer.
    // Kept and checked after the run (checkSampled): the first check parses GitHub's 70 MB description
    // and each operation's first check compiles its schema, seconds that would hold this process's
    // loop, and with it the sender's timing of every webhook answer in flight.
    if (this.validateEvery > 0 && this.requests % this.validateEvery === 0 && path !== '/api/graphql')
      this.#sampled.push({ method, path, query: url.searchParams, body });
    const reply = this.#route(method, path, url.searchParams, body as Record<string, unknown> | undefined);
    if (reply.status === 599) this.errors.push(`${method} ${path}: unexpected request`);
    if (this.latencyMs) {
      const { min, max } = this.latencyMs;
      await new Promise((r) => setTimeout(r, min + this.#random() * (max - min)));
    }
    if (!res.destroyed) send(res, reply.status, reply.body);
  }

  /** Checks the sampled requests against GitHub's OpenAPI description; their problems join `errors`. */
  checkSampled(): void {
    for (const { method, path, query, body } of this.#sampled.splice(0)) {
      this.validated++;
      const match = checkRequest(method, path, query, body);
      if (!match) this.errors.push(`${method} ${path}: no such operation`);
      else for (const p of match.problems) this.errors.push(`${method} ${path}: ${p}`);
    }
  }

  #route(
    method: string,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown> | undefined,
  ): { status: number; body?: unknown } {
    let m: RegExpExecArray | null;
    if (method === 'POST' && (m = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path))) {
      const token = `ghs_load${this.#nextId++}`;
      this.#tokens.set(token, Number(m[1]));
      return { status: 201, body: { token, expires_at: new Date(Date.now() + 3_600_000).toISOString() } };
    }
    // File reads go through GraphQL, at /api/graphql on GitHub Enterprise Server (Probot's GHE_HOST).
    if (method === 'POST' && path === '/api/graphql') {
      const reply = graphqlAnswer(
        { body } as FakeRequest,
        {
          filesAt: (owner, repo, ref) => (owner === this.owner && repo === this.repo ? this.trees.get(ref) : undefined),
          exists: (owner, repo) => owner === this.owner && repo === this.repo,
        },
        (why) => this.errors.push(`POST /api/graphql: invalid query: ${why}`),
      );
      return { status: reply.status ?? 200, body: reply.body };
    }
    // The App asks who it is once (its comments are found by its own bot login).
    if (method === 'GET' && path === '/app') {
      return { status: 200, body: { id: 12345, slug: 'gpu-justify', name: 'gpu-justify', owner: { login: this.owner } } };
    }
    const repoPrefix = `/repos/${this.owner}/${this.repo}`;
    if (!path.startsWith('/repos/')) return { status: 599, body: { message: 'unexpected' } };
    if (!path.startsWith(`${repoPrefix}/`)) return notFound(); // other repositories (an org's .github) hold nothing
    const rest = path.slice(repoPrefix.length);
    if (method === 'GET' && (m = /^\/contents\/(.+)$/.exec(rest))) return this.#contents(m[1] ?? '', query.get('ref') ?? 'HEAD');
    if (method === 'GET' && (m = /^\/pulls\/(\d+)\/files$/.exec(rest))) return this.#files(Number(m[1]));
    if (method === 'GET' && (m = /^\/pulls\/(\d+)$/.exec(rest))) {
      const pull = this.pulls.get(Number(m[1]));
      return pull ? { status: 200, body: this.#pullBody(pull) } : notFound();
    }
    if (method === 'GET' && (m = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      const page = Number(query.get('page') ?? 1);
      const perPage = Number(query.get('per_page') ?? 30);
      return { status: 200, body: this.commentsOf(Number(m[1])).slice((page - 1) * perPage, page * perPage) };
    }
    if (method === 'POST' && (m = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      const comment: LoadComment = {
        id: this.#nextId++,
        issue: Number(m[1]),
        body: String(body?.body),
        user: { login: 'gpu-justify[bot]', type: 'Bot' },
      };
      this.comments.push(comment);
      if (this.countMarker !== '' && comment.body.includes(this.countMarker))
        this.markedCreated.set(comment.issue, (this.markedCreated.get(comment.issue) ?? 0) + 1);
      return { status: 201, body: comment };
    }
    if (method === 'DELETE' && (m = /^\/issues\/comments\/(\d+)$/.exec(rest))) {
      // Replicas that raced settle on one comment and delete the others.
      const at = this.comments.findIndex((c) => c.id === Number(m?.[1]));
      if (at < 0) return notFound();
      this.comments.splice(at, 1);
      return { status: 204 };
    }
    if (method === 'PATCH' && (m = /^\/issues\/comments\/(\d+)$/.exec(rest))) {
      const comment = this.comments.find((c) => c.id === Number(m?.[1]));
      if (!comment) return notFound();
      comment.body = String(body?.body);
      return { status: 200, body: comment };
    }
    if (method === 'POST' && (m = /^\/issues\/comments\/(\d+)\/reactions$/.exec(rest))) {
      const id = Number(m[1]);
      this.reactions.set(id, [...(this.reactions.get(id) ?? []), String(body?.content)]);
      return { status: 201, body: { id: this.#nextId++, content: body?.content } };
    }
    if (method === 'POST' && rest === '/check-runs') {
      const output = body?.output as { title?: string; annotations?: unknown[] } | undefined;
      const concluded = typeof body?.conclusion === 'string';
      const run: LoadCheckRun = {
        id: this.#nextId++,
        headSha: String(body?.head_sha),
        status: concluded ? 'completed' : typeof body?.status === 'string' ? body.status : 'queued',
        conclusion: concluded ? String(body.conclusion) : null,
        title: output?.title ?? '',
        externalId: typeof body?.external_id === 'string' ? body.external_id : '',
        annotations: output?.annotations?.length ?? 0,
      };
      this.checkRuns.set(run.id, run);
      return { status: 201, body: { id: run.id, head_sha: run.headSha, status: run.status } };
    }
    if (method === 'PATCH' && (m = /^\/check-runs\/(\d+)$/.exec(rest))) {
      const run = this.checkRuns.get(Number(m[1]));
      if (!run) return notFound();
      if (typeof body?.conclusion === 'string') {
        run.status = 'completed';
        run.conclusion = body.conclusion;
      }
      const output = body?.output as { title?: string; annotations?: unknown[] } | undefined;
      if (output?.title) run.title = output.title;
      run.annotations += output?.annotations?.length ?? 0;
      return { status: 200, body: { id: run.id, status: run.status, conclusion: run.conclusion } };
    }
    if (method === 'GET' && (m = /^\/commits\/([0-9a-f]+)\/check-runs$/.exec(rest))) {
      const runs = [...this.checkRuns.values()]
        .filter((r) => r.headSha === m?.[1])
        .sort((a, b) => b.id - a.id)
        .map((r) => ({
          id: r.id,
          head_sha: r.headSha,
          name: 'gpu-justify',
          external_id: r.externalId,
          status: r.status,
          conclusion: r.conclusion,
          output: { title: r.title, summary: null, annotations_count: r.annotations },
        }));
      return { status: 200, body: { total_count: runs.length, check_runs: runs } };
    }
    if (method === 'GET' && /^\/pulls\/\d+\/comments$/.test(rest)) return { status: 200, body: [] };
    if (method === 'POST' && /^\/pulls\/\d+\/comments$/.test(rest)) {
      return {
        status: 201,
        body: {
          id: this.#nextId++,
          body: body?.body,
          path: body?.path,
          line: body?.line,
          user: { login: 'gpu-justify[bot]', type: 'Bot' },
        },
      };
    }
    if (method === 'DELETE' && /^\/pulls\/comments\/\d+$/.test(rest)) return { status: 204 };
    // Suggestions go out as one review; its line comments are not kept (none is read back here).
    if (method === 'POST' && /^\/pulls\/\d+\/reviews$/.test(rest)) {
      return {
        status: 200,
        body: { id: this.#nextId++, state: 'COMMENTED', body: body?.body ?? '', user: { login: 'gpu-justify[bot]', type: 'Bot' } },
      };
    }
    if (method === 'GET' && (m = /^\/git\/trees\/([0-9a-f]+)$/.exec(rest))) return this.#tree(m[1] ?? '', query.get('recursive') !== null);
    if (method === 'GET' && (m = /^\/commits\/([0-9a-f]+)\/pulls$/.exec(rest))) {
      return { status: 200, body: [...this.pulls.values()].filter((p) => p.headSha === m?.[1]).map((p) => this.#pullBody(p)) };
    }
    return { status: 599, body: { message: 'unexpected' } };
  }

  /** A commit's tree, as `GET /git/trees/{commit}?recursive=1` lists it (the App lists folders). */
  #tree(sha: string, recursive: boolean): { status: number; body?: unknown } {
    const files = this.trees.get(sha);
    if (!files) return notFound();
    const dirs = new Set<string>();
    for (const path of Object.keys(files)) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
    }
    const entries = [
      ...[...dirs].map((path) => ({ path, mode: '040000', type: 'tree', sha: blobSha(Buffer.from(`tree ${path}`)) })),
      ...Object.entries(files).map(([path, text]) => {
        const bytes = Buffer.from(text, 'utf8');
        return { path, mode: '100644', type: 'blob', sha: blobSha(bytes), size: bytes.length };
      }),
    ].filter((e) => recursive || !e.path.includes('/'));
    return { status: 200, body: { sha, url: `http://${this.origin}/tree/${sha}`, tree: entries, truncated: false } };
  }

  #contents(path: string, ref: string): { status: number; body?: unknown } {
    const text = this.trees.get(ref)?.[path];
    if (text === undefined) return notFound();
    const bytes = Buffer.from(text, 'utf8');
    return {
      status: 200,
      body: {
        type: 'file',
        name: path.split('/').pop(),
        path,
        sha: blobSha(bytes),
        size: bytes.length,
        encoding: 'base64',
        content: bytes.toString('base64'),
      },
    };
  }

  #files(number: number): { status: number; body?: unknown } {
    const pull = this.pulls.get(number);
    if (!pull) return notFound();
    const base = this.trees.get(pull.baseSha) ?? {};
    const head = this.trees.get(pull.headSha) ?? {};
    const files = [...new Set([...Object.keys(base), ...Object.keys(head)])]
      .filter((p) => base[p] !== head[p])
      .map((p) => ({
        sha: blobSha(Buffer.from(head[p] ?? '')),
        filename: p,
        status: base[p] === undefined ? 'added' : head[p] === undefined ? 'removed' : 'modified',
        additions: 1,
        deletions: 1,
        changes: 2,
      }));
    return { status: 200, body: files };
  }

  #pullBody(pull: LoadPull): Record<string, unknown> {
    const repo = {
      name: this.repo,
      full_name: `${this.owner}/${this.repo}`,
      html_url: `https://github.com/${this.owner}/${this.repo}`,
      owner: { login: this.owner },
    };
    return {
      number: pull.number,
      state: 'open',
      draft: false,
      user: { login: 'Codertocat', type: 'User' },
      head: { sha: pull.headSha, repo },
      base: { sha: pull.baseSha, repo },
    };
  }
}

function notFound(): { status: number; body: unknown } {
  return { status: 404, body: { message: 'Not Found' } };
}

function blobSha(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
