import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP proxy in front of Prometheus that counts requests and bytes each way, so the
 * figures are what went over the wire (headers excluded), whatever the client does inside.
 */
export interface CountingProxy {
  url: string;
  requests: number;
  bytesOut: number;
  bytesIn: number;
  /** Summed milliseconds from each request's arrival to the end of Prometheus' answer. */
  upstreamMs: number;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const counts = { requests: 0, bytesOut: 0, bytesIn: 0, upstreamMs: 0 };
  const server = createServer((req, res) => {
    counts.requests++;
    const start = performance.now();
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.on('data', (chunk: Buffer) => void (counts.bytesIn += chunk.length));
      up.on('end', () => void (counts.upstreamMs += performance.now() - start));
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.on('data', (chunk: Buffer) => void (counts.bytesOut += chunk.length));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return counts.requests;
    },
    get bytesOut() {
      return counts.bytesOut;
    },
    get bytesIn() {
      return counts.bytesIn;
    },
    get upstreamMs() {
      return counts.upstreamMs;
    },
    reset() {
      counts.requests = 0;
      counts.bytesOut = 0;
      counts.bytesIn = 0;
      counts.upstreamMs = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
