import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP proxy that holds each request for `delayMs()` before forwarding it: Prometheus
 * as a review reaches it across a network rather than on the same host.
 */
export interface DelayingProxy {
  url: string;
  /** Requests forwarded so far. */
  readonly requests: number;
  close(): Promise<void>;
}

export async function startDelayingProxy(target: string, delayMs: () => number): Promise<DelayingProxy> {
  const to = new URL(target);
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        upstream.on('error', () => res.writeHead(502).end());
        upstream.end(Buffer.concat(chunks));
      }, delayMs());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
