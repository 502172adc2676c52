import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sign } from '@octokit/webhooks-methods';
import { createNodeMiddleware, Probot, ProbotOctokit } from 'probot';
import type { ApplicationFunction, Logger } from 'probot';
import { closeApp, workOf } from '../../src/github/app/app.js';
import { ProductionOctokit } from '../../src/github/app/production-octokit.js';

export interface AppServerOptions {
  /**
   * The Octokit production runs (src/github/app/server.ts): retries and throttling on. Tests leave them off
   * unless they are what is being tested, since each retry and each throttled write waits.
   */
  production?: boolean;
  /** Where Probot and the App log; silent by default. */
  log?: Logger;
  privateKey?: string;
  /** Told of every webhook delivered, before it is sent: how a fake GitHub learns what users wrote. */
  witness?: (event: string, payload: unknown) => void;
}

export const WEBHOOK_SECRET = 'test-webhook-secret';
export const WEBHOOKS_PATH = '/api/github/webhooks';

/** The App's real webhook server on 127.0.0.1, talking to a fake GitHub at `githubUrl`. */
export class AppServer {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly probot: Probot,
    private readonly witness?: (event: string, payload: unknown) => void,
  ) {}

  static async start(app: ApplicationFunction, githubUrl: string, options: AppServerOptions = {}): Promise<AppServer> {
    const probot = new Probot({
      appId: 12345,
      privateKey: options.privateKey ?? newPrivateKey(),
      secret: WEBHOOK_SECRET,
      ...(options.production
        ? { baseUrl: githubUrl, Octokit: ProductionOctokit }
        : {
            // A function, not an object: Probot's own defaults layer replaces a `throttle` object
            // wholesale, so `throttle: { enabled: false }` given as plain defaults would be lost and
            // every write would wait a second.
            Octokit: ProbotOctokit.defaults((o: Record<string, unknown>) => ({
              ...o,
              baseUrl: githubUrl,
              retry: { enabled: false },
              throttle: { ...(o.throttle as object | undefined), enabled: false },
            })),
          }),
      ...(options.log ? { log: options.log } : { logLevel: 'fatal' as const }),
    });
    // createNodeMiddleware loads the app itself.
    const middleware = await createNodeMiddleware(app, { probot, webhooksPath: WEBHOOKS_PATH });
    const server = createServer((req, res) => {
      // Probot's own server answers this, and nothing else, on the App's thread.
      if (req.method === 'GET' && req.url === '/ping') return void res.writeHead(200).end('PONG');
      void middleware(req, res, () => res.writeHead(404).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new AppServer(server, `http://127.0.0.1:${port}`, probot, options.witness);
  }

  /**
   * POSTs a webhook the way GitHub does; resolves once the App has answered and (unless `settle`
   * is false) its queue has run every job, retries included: what the delivery set off is done.
   */
  async deliver(
    event: string,
    payload: unknown,
    options: { secret?: string; delivery?: string; settle?: boolean } = {},
  ): Promise<{ status: number; body: string }> {
    this.witness?.(event, payload);
    const answer = await deliverTo(this.url, event, payload, options);
    if (options.settle !== false) await this.settled();
    return answer;
  }

  /** Resolves once the App's queue holds no job waiting, running or due to run again. */
  async settled(): Promise<void> {
    await workOf(this.probot)?.idle();
  }

  /** Delivers several webhooks at once, as GitHub does after a push. */
  deliverAll(deliveries: { event: string; payload: unknown }[]): Promise<{ status: number; body: string }[]> {
    return Promise.all(deliveries.map((d) => this.deliver(d.event, d.payload)));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
    await closeApp(this.probot);
  }
}

/** POSTs a signed webhook to an App at `url`, the way GitHub does; resolves with its answer. */
export async function deliverTo(
  url: string,
  event: string,
  payload: unknown,
  options: { secret?: string; delivery?: string } = {},
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(payload);
  const signature = await sign(options.secret ?? WEBHOOK_SECRET, body);
  const res = await fetch(`${url}${WEBHOOKS_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': options.delivery ?? randomUUID(),
      'x-hub-signature-256': signature,
      'user-agent': 'GitHub-Hookshot/test',
    },
    body,
  });
  return { status: res.status, body: await res.text() };
}

export function newPrivateKey(): string {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
}
